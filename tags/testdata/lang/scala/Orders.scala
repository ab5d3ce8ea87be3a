package com.example.shop.orders

import java.time.Instant
import scala.concurrent.{ExecutionContext => EC, Future}
import com.example.shop.model._

/** Order lifecycle states. */
enum OrderStatus:
  case Open, Paid
  case Refunded(reason: String) extends OrderStatus

  def isFinal: Boolean = this != Open

trait OrderRepository[F[_]] {
  def find(id: OrderId): F[Option[Order]]
  def save(order: Order): F[Unit]
}

type OrderId = String

val MaxLines = 100
var lastSync: Option[Instant] = None

@SerialVersionUID(1L)
final case class Order(id: OrderId, lines: List[LineItem]) extends Entity(id) with Ordered[Order] {
  def this(id: OrderId) = this(id, Nil)

  def total: Money = lines.map(_.price).foldLeft(Money.Zero)(_ plus _)

  override def compare(that: Order): Int = id compare that.id
}

object Order {
  val Prefix = "ord-"
  var created = 0
  given ordering: Ordering[Order] = Ordering.by(_.id)

  def newId(): OrderId = Prefix + Instant.now().toEpochMilli
}

class OrderService(repo: OrderRepository[Future])(implicit ec: EC) extends Service {
  def place(order: Order): Future[Order] = {
    require(order.lines.nonEmpty)
    repo.save(order).map { _ =>
      Order.created += 1
      lastSync = Some(Instant.now())
      order
    }
  }

  def audit(order: Order): Unit = new AuditLog(order.id).write[String]("placed")
}

def placeAll(service: OrderService, orders: Seq[Order]): Unit =
  orders foreach service.place
