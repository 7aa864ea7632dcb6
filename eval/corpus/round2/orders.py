"""Order processing for the web shop.

An order moves through “pending”, “paid”, “shipped” and “closed”. Refunds
are only possible before shipping — see the operations handbook.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Iterable, Optional

log = logging.getLogger(__name__)

STATUS_LABELS = {
    "pending":   "Waiting for payment",
    "paid":      "Paid, not shipped",
    "shipped":   "On its way",
    "closed":    "Delivered",
    "refunded":  "Money returned",
}

VAT_RATE = Decimal("0.20")
FREE_SHIPPING_ABOVE = Decimal("50.00")
SHIPPING_FLAT_FEE = Decimal("4.90")


class OrderError(Exception):
    """Raised when an order cannot move to the requested state."""


@dataclass
class OrderLine:
    product_code: str
    description: str
    unit_price: Decimal
    quantity: int = 1

    def subtotal(self) -> Decimal:
        return self.unit_price * self.quantity

    def describe(self) -> str:
        return f"{self.quantity} × {self.description} at {self.unit_price}"


@dataclass
class Order:
    order_id: str
    customer_email: str
    lines: list[OrderLine] = field(default_factory=list)
    status: str = "pending"
    created_at: dt.datetime = field(default_factory=dt.datetime.utcnow)
    shipped_at: Optional[dt.datetime] = None

    def add_line(self, line: OrderLine) -> None:
        if self.status != "pending":
            raise OrderError(f"order {self.order_id} is already {self.status}")
        for existing in self.lines:
            if existing.product_code == line.product_code:
                existing.quantity += line.quantity
                return
        self.lines.append(line)

    def net_total(self) -> Decimal:
        total = sum((line.subtotal() for line in self.lines), Decimal("0"))
        return total.quantize(Decimal("0.01"))

    def shipping_fee(self) -> Decimal:
        if self.net_total() >= FREE_SHIPPING_ABOVE:
            return Decimal("0.00")
        return SHIPPING_FLAT_FEE

    def gross_total(self) -> Decimal:
        net = self.net_total() + self.shipping_fee()
        vat = (net * VAT_RATE).quantize(Decimal("0.01"))
        return net + vat

    def mark_paid(self) -> None:
        if self.status != "pending":
            raise OrderError(f"cannot pay order {self.order_id}: it is “{self.status}”")
        self.status = "paid"
        log.info("order %s paid", self.order_id)

    def mark_shipped(self, when: Optional[dt.datetime] = None) -> None:
        if self.status != "paid":
            raise OrderError(f"cannot ship order {self.order_id} before payment")
        self.status = "shipped"
        self.shipped_at = when or dt.datetime.utcnow()
        log.info("order %s shipped at %s", self.order_id, self.shipped_at)

    def refund(self, reason: str) -> Decimal:
        if self.status not in ("pending", "paid"):
            raise OrderError(f"order {self.order_id} can’t be refunded once shipped")
        amount = self.gross_total() if self.status == "paid" else Decimal("0.00")
        self.status = "refunded"
        log.warning("order %s refunded (%s): %s", self.order_id, reason, amount)
        return amount


class OrderBook:
    def __init__(self) -> None:
        self._orders: dict[str, Order] = {}
        self._by_customer: dict[str, list[str]] = {}

    def open_order(self, order_id: str, customer_email: str) -> Order:
        if order_id in self._orders:
            raise OrderError(f"duplicate order id {order_id}")
        order = Order(order_id=order_id, customer_email=customer_email)
        self._orders[order_id] = order
        self._by_customer.setdefault(customer_email, []).append(order_id)
        return order

    def get(self, order_id: str) -> Order:
        try:
            return self._orders[order_id]
        except KeyError:
            raise OrderError(f"no order with id “{order_id}”") from None

    def orders_for(self, customer_email: str) -> list[Order]:
        ids = self._by_customer.get(customer_email, [])
        return [self._orders[order_id] for order_id in ids]

    def pending_older_than(self, days: int) -> Iterable[Order]:
        cutoff = dt.datetime.utcnow() - dt.timedelta(days=days)
        for order in self._orders.values():
            if order.status == "pending" and order.created_at < cutoff:
                yield order

    def revenue(self) -> Decimal:
        paid = [o for o in self._orders.values() if o.status in ("paid", "shipped", "closed")]
        return sum((o.gross_total() for o in paid), Decimal("0"))

    def summary(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for order in self._orders.values():
            counts[order.status] = counts.get(order.status, 0) + 1
        return counts


def parse_line(raw: str) -> OrderLine:
    """Parse `CODE;description;price;quantity` — the export format of the old till."""
    parts = [p.strip() for p in raw.split(";")]
    if len(parts) not in (3, 4):
        raise ValueError(f"expected 3 or 4 fields, got {len(parts)}: {raw!r}")
    quantity = int(parts[3]) if len(parts) == 4 else 1
    return OrderLine(
        product_code=parts[0],
        description=parts[1],
        unit_price=Decimal(parts[2]),
        quantity=quantity,
    )


def close_delivered(book: OrderBook, delivered_ids: Iterable[str]) -> int:
    closed = 0
    for order_id in delivered_ids:
        order = book.get(order_id)
        if order.status == "shipped":
            order.status = "closed"
            closed += 1
        else:
            log.debug("skipping %s: status is %s", order_id, order.status)
    return closed


def format_receipt(order: Order) -> str:
    rows = [f"Receipt for order {order.order_id}", ""]
    for line in order.lines:
        rows.append(f"  {line.describe():<40} {line.subtotal():>8}")
    rows.append("")
    rows.append(f"  {'Shipping':<40} {order.shipping_fee():>8}")
    rows.append(f"  {'Total (incl. VAT)':<40} {order.gross_total():>8}")
    rows.append("")
    rows.append("Thank you for shopping with us — we hope to see you again.")
    return "\n".join(rows)
