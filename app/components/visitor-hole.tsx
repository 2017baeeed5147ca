import { useRouteLoaderData } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { NOBODY, type Visitor } from "#server/contracts/visitor";

/** The id of the JSON the page cache puts in the "visitor" hole, read once by the browser. */
export const VISITOR_DATA_ID = "visitor-data";

type RootVisitor = { visitor: Visitor | null } | undefined;

let fromPage: Visitor | undefined;

// A cached page's root data says nobody in particular (visitor: null); the visitor the page was
// served to is in the JSON the cache filled into the hole. Read once: after hydration React
// replaces the hole, script and all.
function visitorFromPage(): Visitor {
  if (fromPage) return fromPage;
  if (typeof document === "undefined") return NOBODY;
  const text = document.getElementById(VISITOR_DATA_ID)?.textContent;
  fromPage = text ? (JSON.parse(text) as Visitor) : NOBODY;
  return fromPage;
}

/** The visitor the root loader last spoke of, or the one a cached page was filled for. */
export function useVisitor(): Visitor {
  const root = useRouteLoaderData("root") as RootVisitor;
  return root?.visitor ?? visitorFromPage();
}

/**
 * A per-visitor part of a page that may be served from the shared page cache (decision 0014).
 * Rendered normally when the root loader knows the visitor. In the cache's template it is an
 * empty marker the cache fills per response with server-made HTML (which is what a browser
 * without JavaScript keeps); React hydrates the marker without looking inside, then renders the
 * part itself from the visitor in the page.
 */
export function VisitorHole({ name, children }: { name: string; children: (visitor: Visitor) => React.ReactNode }) {
  const root = useRouteLoaderData("root") as RootVisitor;
  const hydrated = useHydrated();
  const visitor = useVisitor();
  if (root?.visitor || hydrated || !root) return <>{children(visitor)}</>;
  return <span data-hole={name} style={{ display: "contents" }} dangerouslySetInnerHTML={{ __html: "" }} suppressHydrationWarning />;
}
