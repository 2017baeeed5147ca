const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** "$1,036.80": how every screen and e-mail shows a dollar amount. */
export function formatUsd(dollars: number): string {
  return usd.format(dollars);
}
