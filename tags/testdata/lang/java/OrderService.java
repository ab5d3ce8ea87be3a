package com.example.shop.orders;

import java.util.ArrayList;
import java.util.List;
import static java.util.Objects.requireNonNull;
import com.example.shop.model.*;

/** Places and tracks orders. */
@Service
public class OrderService extends AbstractService<Order> implements OrderListener, java.io.Closeable {
    public static final int MAX_LINES = 50;
    static int instances;
    private final List<Order> orders = new ArrayList<>();
    private final PaymentGateway gateway;

    public OrderService(PaymentGateway gateway) {
        this.gateway = requireNonNull(gateway);
        instances++;
    }

    @Override
    public void onPlaced(Order order) {
        orders.add(order);
        gateway.charge(order.total(), Currency.EUR);
    }

    public List<Receipt> receipts() {
        return orders.stream().map(Receipt::from).toList();
    }

    public Order place(Customer customer, List<LineItem> lines) throws OrderException {
        if (lines.size() > MAX_LINES) {
            throw new OrderException("too many lines");
        }
        Order order = new Order(customer, lines);
        onPlaced(order);
        return order;
    }

    @Override
    public void close() {
        Audit.log("closing");
        this.onPlaced(null);
        super.close();
        this.gateway.refund();
    }
}

interface OrderListener {
    String TOPIC = "orders";

    void onPlaced(Order order);
}

enum OrderStatus {
    OPEN,
    PAID,
    SHIPPED;

    boolean isFinal() {
        return this == SHIPPED;
    }
}

record Receipt(String id, Money amount) {
    Receipt {
        requireNonNull(id);
    }

    static Receipt from(Order order) {
        return new Receipt(order.id(), order.total());
    }
}

@interface Audited {
    String value() default "";
}
