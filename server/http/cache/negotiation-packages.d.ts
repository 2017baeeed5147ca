// Express's own negotiation packages ship no types and no @types package is installed: the little
// of them server/http/cache/negotiation.ts calls.

declare module "negotiator" {
  class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    /** The available encodings the header accepts, best first; ties in `preferred` order. */
    encodings(available?: string[], preferred?: string[]): string[];
  }
  export default Negotiator;
}

declare module "fresh" {
  /** Whether the request's validators match the response's (a 304 is the answer). */
  export default function fresh(
    requestHeaders: Record<string, string | string[] | undefined>,
    responseHeaders: Record<string, string | number | string[] | undefined>,
  ): boolean;
}
