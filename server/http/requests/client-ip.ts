import type { AppLoadContext } from "@remix-run/node";

/**
 * The caller's address for rate limits. The production server puts the socket address in the
 * load context (honouring X-Forwarded-For only when TRUST_PROXY is set).
 */
export function clientIpOf(context: AppLoadContext | undefined): string {
  const ip = (context as { clientIp?: string } | undefined)?.clientIp;
  return ip || "local";
}
