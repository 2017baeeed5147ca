import { getAppContext } from "#server/boot";
import { contentSecurityPolicy, pageSecurityHeaders, servedOverHttps } from "#server/http/security-headers";

/**
 * Every HTML document's security headers, the CSP with this answer's nonce (decision 0028): the door
 * of app/page-headers.server.ts, which entry.server and the memo door share. Not one page's door but
 * the document's, so app/ reads the app context only through doors (decision 0043).
 */
export async function documentSecurityHeaders(requestUrl: string, nonce: string): Promise<[string, string][]> {
  const { config } = await getAppContext();
  return [
    ...pageSecurityHeaders(config, servedOverHttps(config, requestUrl)),
    ["Content-Security-Policy", contentSecurityPolicy(config, nonce)],
  ];
}
