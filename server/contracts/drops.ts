import type { Funnel } from "./reports";

/**
 * The drop report and the pre-drop checklist (issue 14 parts 2–3, decision 0026): the shapes the
 * REST doors, tRPC and the admin pages share. Money in dollars, instants ISO-8601 UTC.
 */

export interface DropListItem {
  id: number;
  /** T-0: the countdown date. */
  countdownAt: string;
  /** The window the drop's orders are counted in. */
  from: string;
  to: string;
  state: "upcoming" | "live" | "past";
}

export interface DropProductLine {
  productId: number | null;
  name: string;
  units: number;
  revenue: number;
  /** Units on the shelf now. */
  left: number;
  /** When the last unit sold (the last paid order in the window), when the product is sold out. */
  soldOutAt: string | null;
  /** Seconds from T-0 to that order (negative: sold out in early access, before T-0). */
  sellOutSeconds: number | null;
  /**
   * What sold per size and colour (issue 23), in the product's size order then colour; empty for a
   * product whose lines carry neither. `left` is the stock that variant draws from now: the size's
   * (colours sharing it), the colour and size's (stock per colour), or the product's.
   */
  variants: DropVariantLine[];
}

export interface DropVariantLine {
  size: string | null;
  color: string | null;
  units: number;
  revenue: number;
  left: number;
}

export interface DropMinute {
  /** Minutes after T-0: 0 is T-0 to T+1 min. */
  minute: number;
  units: number;
  revenue: number;
}

/** The dashboard's funnel (decision 0025), over the drop's first hour. */
export type DropFunnel = Funnel;

export interface DropReport {
  id: number;
  countdownAt: string;
  from: string;
  to: string;
  state: DropListItem["state"];
  includeTest: boolean;
  /** Paid orders placed in the window. Revenue is merchandise after discounts, before tax and shipping. */
  totals: { orders: number; units: number; revenue: number };
  products: DropProductLine[];
  /** The first hour after T-0, minute by minute (60 entries), and what sold before T-0 (early access). */
  minutes: DropMinute[];
  beforeT0: { units: number; revenue: number };
  /** Visitors → bag → checkout → order → paid over T-0 to T+1 h; null while no events are recorded. */
  funnel: DropFunnel | null;
  waitingRoom: {
    joined: number;
    peakLength: number;
    peakAt: string | null;
    admitted: number;
    waitP50Seconds: number | null;
    waitP95Seconds: number | null;
    /** Joined but never came back for their turn. */
    leftLine: number;
  };
  earlyAccess: { sent: number; used: number; converted: number };
  soldOutMisses: { attempts: number; shoppers: number; products: { name: string; attempts: number }[] };
  refunds: { count: number; amount: number };
}

export type ChecklistLevel = "green" | "amber" | "red";

export interface ChecklistItem {
  id: "products" | "stock" | "prices" | "countdown" | "payments" | "shipFrom" | "mail" | "waitingRoom" | "earlyAccess";
  label: string;
  level: ChecklistLevel;
  reason: string;
  /** The admin page that fixes it; null when only the server's environment can (the reason says which variable). */
  fixHref: string | null;
  fixLabel: string | null;
}

export interface PreDropChecklist {
  countdownAt: string;
  /** False when no countdown is ahead: the dashboard then shows no checklist. */
  ahead: boolean;
  items: ChecklistItem[];
}

/** The CSV download's first row (decision 0026 describes the rows). */
export const DROP_CSV_HEADER = ["section", "label", "units", "revenue", "value"] as const;

export const TEST_EMAIL_TAG = "test-email";
export const TEST_EMAIL_MESSAGES = {
  sent: (to: string) => `Test e-mail sent to ${to}.`,
  failed: (error: string) => `The test e-mail could not be sent: ${error}`,
} as const;
