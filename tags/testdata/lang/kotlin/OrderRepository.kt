package com.example.shop.orders

import com.example.shop.model.*
import java.time.Instant
import kotlinx.serialization.Serializable as Ser

const val MAX_LINES = 100
val defaultCurrency = Currency.EUR
var lastSync: Instant? = null

typealias OrderId = String

interface OrderRepository {
    fun find(id: OrderId): Order?
    fun save(order: Order)
}

enum class OrderStatus(val label: String) {
    OPEN("open"),
    PAID("paid");

    fun isDone(): Boolean = this == PAID
}

@Ser
data class Order(val id: OrderId, val lines: List<LineItem>) : Entity(id), Comparable<Order> {
    var status: OrderStatus = OrderStatus.OPEN

    constructor(id: OrderId) : this(id, emptyList())

    override fun compareTo(other: Order): Int = id.compareTo(other.id)

    fun total(): Money = lines.fold(Money.ZERO) { sum, line -> sum.plus(line.price) }

    companion object {
        const val PREFIX = "ord-"
        val EMPTY = Order(PREFIX + "0")

        fun newId(): OrderId = PREFIX + Instant.now().toEpochMilli()
    }
}

class InMemoryOrders(private val store: MutableMap<OrderId, Order>) : OrderRepository by MapRepository(store)

object OrderMetrics {
    var placed = 0

    fun record(order: Order) {
        placed += 1
        lastSync = Instant.now()
    }
}

suspend fun placeOrder(repo: OrderRepository, order: Order): Order {
    require(order.lines.isNotEmpty())
    repo.save(order)
    OrderMetrics.record(order)
    return order.also(::audit)
}

private fun audit(order: Order) = println("placed ${order.id}")
