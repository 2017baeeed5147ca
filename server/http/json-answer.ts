/**
 * A JSON answer of the API not yet made into a fetch Response (decision 0069). The API's write door
 * writes it on node's answer as it is; every other door gets the Response `Response.json` makes.
 * undici's Response costs a body stream, a Headers and their checks, and reading the body back
 * out: in a drop's rush about 7 % of a worker's busy time, for answers of a few hundred bytes.
 */
export class JsonAnswer {
  /** The JSON text, made at once: a value JSON cannot hold throws here, as `Response.json` would. */
  readonly body: string;
  /** Header names in lower case, as a fetch Headers gives them; Set-Cookie may repeat. */
  readonly headers: [string, string][];

  constructor(
    value: unknown,
    readonly status = 200,
    headers?: HeadersInit,
  ) {
    const body = JSON.stringify(value);
    if (body === undefined) throw new TypeError("Value is not JSON serializable");
    this.body = body;
    this.headers = headerPairs(headers);
  }

  has(name: string): boolean {
    const key = name.toLowerCase();
    return this.headers.some(([header]) => header === key);
  }

  /** The same answer as `Response.json` makes it. */
  toResponse(): Response {
    return new Response(this.body, {
      status: this.status,
      headers: this.has("content-type") ? this.headers : [...this.headers, ["content-type", "application/json"]],
    });
  }
}

/** `Response.json` for the API's handlers: `new JsonAnswer(value, init.status, init.headers)`. */
export function jsonAnswer(value: unknown, init: { status?: number; headers?: HeadersInit } = {}): JsonAnswer {
  return new JsonAnswer(value, init.status, init.headers);
}

/** The answer as a fetch Response, whichever it is. */
export const asResponse = (answer: Response | JsonAnswer): Response => (answer instanceof JsonAnswer ? answer.toResponse() : answer);

function headerPairs(headers: HeadersInit | undefined): [string, string][] {
  if (!headers) return [];
  const pairs: [string, string][] = [];
  const entries: Iterable<[string, string]> =
    headers instanceof Headers || Array.isArray(headers) ? (headers as Iterable<[string, string]>) : Object.entries(headers);
  for (const [name, value] of entries) pairs.push([name.toLowerCase(), value]);
  return pairs;
}
