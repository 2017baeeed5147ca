// What the support page's browser code needs from the support contract, without zod: the page
// validates on the server only (decision 0029), so the schema stays in support.ts.

export const SUPPORT_TYPES = [
  { value: "order", label: "Order Issues" },
  { value: "product", label: "Product Questions" },
  { value: "shipping", label: "Shipping & Delivery" },
  { value: "refund", label: "Returns & Refunds" },
  { value: "technical", label: "Technical Issues" },
  { value: "other", label: "Other" },
] as const;

/** The form's fields, in the order a visitor meets them (the first one in error gets the focus). */
export const SUPPORT_FIELDS = ["name", "email", "orderNumber", "supportType", "subject", "message"] as const;
export type SupportField = (typeof SUPPORT_FIELDS)[number];
