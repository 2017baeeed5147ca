/** Shapes the root layout hands to its components; safe for client code to import. */
export type ToastKind = "success" | "error" | "info";

/** What an action tells the visitor: inline without JavaScript, as a toast with it. */
export interface Notice {
  kind: ToastKind;
  title: string;
  description?: string;
}

export interface FlashToast {
  id: string;
  kind: ToastKind;
  title: string;
  description?: string;
}

export interface Brand {
  name: string;
  socialHandle: string;
  supportEmail: string;
}
