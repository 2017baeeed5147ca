// The order page's texts, apart from its schemas: the checkout's paid notice shows one without loading zod (decision 0029).
export const ORDER_PAGE_MESSAGES = {
  notFound: "Order not found.",
  lookupSent: "If that order exists, we've e-mailed a link to it.",
  lookupTooMany: (minutes: number) => `Too many lookups. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  emailInvalid: "Please enter a valid email address",
  orderNumberRequired: "Please enter your order number",
  needHelp: "Need help with this order?",
  viewOrder: "View your order",
  findTitle: "Find my order",
} as const;
