import { dispatchApi } from "#server/api/dispatch";

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

/**
 * Sends a request through the API table (server/api) as the server would, with JSON in and the
 * jar's cookies. A string body goes as it is; FormData or bytes go with their own Content-Type.
 */
export async function api(
  method: string,
  path: string,
  options: { body?: unknown; jar?: CookieJar; ip?: string; headers?: HeadersInit } = {},
): Promise<Response> {
  const { body, jar, ip, headers: extra } = options;
  const headers = new Headers(extra);
  if (jar) headers.set("Cookie", jar.header());
  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof Uint8Array || body instanceof ArrayBuffer || body instanceof Blob) {
    payload = body as BodyInit;
  } else if (body !== undefined) {
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
    payload = typeof body === "string" ? body : JSON.stringify(body);
  }
  return send(new Request(`http://localhost${path}`, { method, headers, body: payload }), { jar, ip });
}

/** Dispatches a ready-made request (multipart, a signed webhook) through the API table. */
export async function send(request: Request, options: { jar?: CookieJar; ip?: string } = {}): Promise<Response> {
  const response = await dispatchApi(request, { clientIp: options.ip ?? "203.0.113.7" });
  options.jar?.store(response);
  return response;
}
