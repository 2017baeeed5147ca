import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<Response> | Response;

/** Cookies kept between calls, as a browser would. */
export class CookieJar {
  private cookies = new Map<string, string>();

  store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const [name, ...rest] = (pair ?? "").split("=");
      const value = rest.join("=");
      const cleared = /max-age=0/i.test(header) || /expires=thu, 01 jan 1970/i.test(header);
      if (!name) continue;
      if (cleared || value === "") this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  has(name: string) {
    return this.cookies.has(name);
  }
}

/** Calls a route's loader or action the way Remix would, with JSON in and the jar's cookies. */
export async function call(
  handler: Handler,
  options: { method?: string; path?: string; body?: unknown; jar?: CookieJar; ip?: string; params?: Record<string, string> } = {},
): Promise<Response> {
  const { method = "GET", path = "/", body, jar, ip = "203.0.113.7", params = {} } = options;
  const headers = new Headers();
  if (jar) headers.set("Cookie", jar.header());
  if (body !== undefined) headers.set("Content-Type", "application/json");
  const request = new Request(`http://localhost${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const response = await handler({ request, params, context: { clientIp: ip } } as LoaderFunctionArgs & ActionFunctionArgs);
  jar?.store(response);
  return response;
}
