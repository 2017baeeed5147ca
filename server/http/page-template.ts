/**
 * Marks the page cache's own render of a page for nobody. The cache removes it from every
 * incoming request before setting it, so no visitor can ask for a template; without the cache
 * (the dev server) nothing sets it and every page renders its visitor as before.
 */
export const TEMPLATE_HEADER = "x-page-template";

export function isTemplateRender(request: Request): boolean {
  return request.headers.get(TEMPLATE_HEADER) === "1";
}
