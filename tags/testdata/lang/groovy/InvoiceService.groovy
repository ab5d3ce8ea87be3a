package com.example.billing

import groovy.transform.CompileStatic
import java.time.LocalDate
import com.example.billing.model.*

@CompileStatic
class InvoiceService extends BaseService implements Closeable, Auditable {
    static final int MAX_LINES = 200
    static final String PREFIX = 'INV-'
    static int issued
    private final Map<String, Invoice> invoices = [:]
    private final TaxPolicy tax

    InvoiceService(TaxPolicy tax) {
        super('billing')
        this.tax = tax
    }

    Invoice issue(Customer customer, List<LineItem> lines) {
        if (lines.size() > MAX_LINES) {
            throw new IllegalArgumentException("too many lines")
        }
        def invoice = new Invoice(PREFIX + (++issued), customer, LocalDate.now())
        lines.each({ LineItem line -> invoice.add(line, tax.rateFor(line)) })
        invoices[invoice.id] = invoice
        audit?.record(invoice)
        return invoice
    }

    Invoice find(String id) {
        invoices.get(id)
    }

    void close() {
        invoices.clear()
    }
}

interface Auditable {
    void record(Invoice invoice)
}

trait Numbered {
    String number() { PREFIX + id }
}

enum InvoiceState {
    DRAFT, ISSUED, PAID
}

record Period(LocalDate from, LocalDate to) {}
