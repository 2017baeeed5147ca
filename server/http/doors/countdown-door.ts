import { sanitizeRichText } from "#server/services/security/sanitize";
import { launchPageData } from "./launch-page";

/** docs/spec.md §2 "Alternative countdown page": the launch page's data and the admin's countdown text. */
export async function countdownLoader() {
  const { settings, base } = await launchPageData();
  // Admin HTML: sanitised here, on the server, right before it is rendered as markup.
  return { ...base, countdownHtml: sanitizeRichText(settings.countdown_text) };
}
