import Foundation

protocol Priced {
    var cents: Int { get }
}

struct Item: Priced, Codable {
    let sku: String
    var cents: Int
}

typealias Catalog = [String: Item]

final class Inventory {
    static let shared = Inventory()
    private var catalog: Catalog = [:]

    func price(of sku: String) throws -> Int {
        guard let item = catalog[sku] else { throw StockError.missing(sku) }
        return formatCents(item.cents)
    }
}

extension Inventory: CustomStringConvertible {
    var description: String { "Inventory(\(catalog.count))" }
}

enum StockError: Error {
    case missing(String)
}

actor StockCounter {
    var count = 0
}
