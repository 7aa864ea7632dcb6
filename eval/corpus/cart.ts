// Shopping cart state for the storefront.
// Prices are kept in cents to avoid floating-point surprises.

export interface Product {
  id: string;
  title: string;
  priceCents: number;
  tags?: string[];
}

export interface CartLine {
  product: Product;
  quantity: number;
}

export type Discount =
  | { kind: "percent"; value: number }
  | { kind: "fixed"; cents: number }
  | { kind: "none" };

const MAX_QUANTITY = 99;

export class Cart {
  private lines = new Map<string, CartLine>();
  private discount: Discount = { kind: "none" };

  add(product: Product, quantity = 1): void {
    if (quantity <= 0) {
      throw new Error(`quantity must be positive, got ${quantity}`);
    }
    const existing = this.lines.get(product.id);
    const next = Math.min((existing?.quantity ?? 0) + quantity, MAX_QUANTITY);
    this.lines.set(product.id, { product, quantity: next });
  }

  remove(productId: string): boolean {
    return this.lines.delete(productId);
  }

  setDiscount(discount: Discount): void {
    this.discount = discount;
  }

  subtotalCents(): number {
    let total = 0;
    for (const line of this.lines.values()) {
      total += line.product.priceCents * line.quantity;
    }
    return total;
  }

  totalCents(): number {
    const subtotal = this.subtotalCents();
    switch (this.discount.kind) {
      case "percent":
        return Math.round(subtotal * (1 - this.discount.value / 100));
      case "fixed":
        return Math.max(0, subtotal - this.discount.cents);
      default:
        return subtotal;
    }
  }

  itemCount(): number {
    let count = 0;
    this.lines.forEach((line) => {
      count += line.quantity;
    });
    return count;
  }

  describe(): string {
    const parts = [...this.lines.values()].map(
      (line) => `${line.quantity} × ${line.product.title}`,
    );
    return parts.length === 0 ? "Your cart is empty" : parts.join(", ");
  }
}

export function formatCents(cents: number, currency = "USD"): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cents / 100);
}
