/** The buyer's e-mails on the way (issue 25), each of which the admin can turn off in App Settings. */
export const ORDER_EMAIL_KINDS = ["shipped", "delivered", "cancelled", "refunded"] as const;
export type OrderEmailKind = (typeof ORDER_EMAIL_KINDS)[number];

export const ORDER_EMAIL_LABELS: Record<OrderEmailKind, string> = {
  shipped: "Order shipped (with tracking)",
  delivered: "Order delivered",
  cancelled: "Order cancelled",
  refunded: "Refund issued",
};

export const ORDER_EMAIL_MESSAGES = { updated: "Order E-mails Updated", failed: "Failed to Update Order E-mails" } as const;
