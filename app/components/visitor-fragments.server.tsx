import { renderToStaticMarkup } from "react-dom/server";
import type { Visitor } from "#server/contracts/visitor";
import { BagIcon, cartLabel, triggerClass } from "./cart-button";
import { adminLinkTitle, desktopLinkClass, MenuLinkBody, menuItemClass, menuLinkClass } from "./site-header";
import { StaticFlash } from "./static-flash";
import { VISITOR_DATA_ID } from "./visitor-hole";

// JSON inside <script> must not be able to close it, whatever a username or a flash says.
const scriptSafe = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

/**
 * The HTML each hole of a cached page gets for one visitor (decision 0014): what a normal render
 * shows before hydration, as plain links, so a browser without JavaScript sees the same page.
 * React escapes every text and attribute. The "visitor" hole also carries the visitor as JSON for
 * the browser's first render, so hydration and the header agree with what was painted.
 */
export function renderVisitorFragments(visitor: Visitor): Record<string, string> {
  const admin = visitor.user?.isAdmin ? visitor.user : null;
  return {
    bag: renderToStaticMarkup(
      <a href="/cart" aria-label={cartLabel(visitor.cartCount)} data-testid="cart-button" className={triggerClass}>
        <BagIcon count={visitor.cartCount} />
      </a>,
    ),
    "nav-admin": admin
      ? renderToStaticMarkup(
          <li>
            <a href="/admin" title={adminLinkTitle(admin)} className={desktopLinkClass(false)}>
              Admin
            </a>
          </li>,
        )
      : "",
    "menu-admin": admin
      ? renderToStaticMarkup(
          <li className={menuItemClass}>
            <a href="/admin" title={adminLinkTitle(admin)} className={menuLinkClass(false)}>
              <MenuLinkBody label="Admin" isActive={false} />
            </a>
          </li>,
        )
      : "",
    visitor:
      `<script type="application/json" id="${VISITOR_DATA_ID}">${scriptSafe(visitor)}</script>` +
      (visitor.toast ? renderToStaticMarkup(<StaticFlash flash={visitor.toast} />) : ""),
  };
}
