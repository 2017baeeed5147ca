import type { AppLoadContext } from "@remix-run/node";

/**
 * Marks the page cache's own render of a page for nobody. The mark is the load context object the
 * cache hands Remix, kept in this process's memory: nothing a client sends (no header, no cookie,
 * no query) can make a request a template render, so no visitor can render a page as nobody, get
 * the stand-in nonce, or walk past the waiting room's line as the template (issue 21). Without the
 * cache (the dev server) nothing marks a render and every page renders its visitor.
 */
const templateContexts = new WeakSet<object>();

/** The load context of one template render: `{ clientIp: "page-cache" }`, marked. */
export function templateRenderContext(): AppLoadContext {
  const context = { clientIp: "page-cache" };
  templateContexts.add(context);
  return context;
}

/** True for the page cache's own render for nobody, judged by the load context Remix passes along. */
export function isTemplateRender(context: AppLoadContext | undefined): boolean {
  return context !== undefined && templateContexts.has(context);
}
