/** The root loader's brand, as a route's meta sees it in `matches`. */
export function brandOf(matches: ReadonlyArray<{ id: string; data?: unknown }>): string {
  const root = matches.find((match) => match.id === "root")?.data as { brand?: { name?: string } } | undefined;
  return root?.brand?.name ?? "Store";
}

/** Every tab reads "{Page} | {brand}", so a row of the store's tabs sorts by page. */
export function pageTitle(page: string, matches: ReadonlyArray<{ id: string; data?: unknown }>): { title: string } {
  return { title: `${page} | ${brandOf(matches)}` };
}
