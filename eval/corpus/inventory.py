"""Inventory tracking for a small warehouse.

Items are stored with a SKU, a name and a quantity. The “reorder” logic
follows the supplier’s rules — see docs/reorder.md for the details.
"""

from __future__ import annotations

import csv
import logging
from dataclasses import dataclass, field
from typing import Iterable

log = logging.getLogger(__name__)

REORDER_THRESHOLD = 10
DEFAULT_SUPPLIER = "Acme Corp"


@dataclass
class Item:
    sku: str
    name: str
    quantity: int = 0
    tags: list[str] = field(default_factory=list)

    def needs_reorder(self) -> bool:
        """True when stock is at or below the threshold."""
        return self.quantity <= REORDER_THRESHOLD

    def label(self) -> str:
        return f"{self.sku} – {self.name} ({self.quantity})"


class Inventory:
    def __init__(self) -> None:
        self._items: dict[str, Item] = {}

    def add(self, item: Item) -> None:
        if item.sku in self._items:
            raise ValueError(f"duplicate SKU: {item.sku}")
        self._items[item.sku] = item
        log.info("added %s", item.sku)

    def remove(self, sku: str) -> Item:
        try:
            return self._items.pop(sku)
        except KeyError:
            raise KeyError(f"unknown SKU: {sku}") from None

    def adjust(self, sku: str, delta: int) -> int:
        item = self._items[sku]
        item.quantity += delta
        if item.quantity < 0:
            item.quantity = 0
            log.warning("quantity of %s went negative; clamped to 0", sku)
        return item.quantity

    def low_stock(self) -> list[Item]:
        return [item for item in self._items.values() if item.needs_reorder()]

    def total_units(self) -> int:
        return sum(item.quantity for item in self._items.values())

    def load_csv(self, rows: Iterable[dict[str, str]]) -> int:
        count = 0
        for row in rows:
            item = Item(sku=row["sku"], name=row["name"], quantity=int(row.get("qty", "0")))
            self.add(item)
            count += 1
        return count

    def export_csv(self, path: str) -> None:
        with open(path, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["sku", "name", "qty"])
            for item in sorted(self._items.values(), key=lambda i: i.sku):
                writer.writerow([item.sku, item.name, item.quantity])


def summarize(inventory: Inventory) -> str:
    low = inventory.low_stock()
    lines = [f"Total units: {inventory.total_units()}"]
    if low:
        lines.append("Reorder soon:")
        lines.extend(f"  • {item.label()}" for item in low)
    else:
        lines.append("Nothing to reorder.")
    return "\n".join(lines)
