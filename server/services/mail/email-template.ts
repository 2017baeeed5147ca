import type { AppContext } from "#server/context";
import { formatLaunchTime } from "#server/contracts/store-time";
import { getPublicSettings } from "#server/services/store/settings";
import { escapeHtml } from "#server/services/security/sanitize";

// Inline styles only, tables for layout, web-safe font stacks: what every mail client renders.
const DISPLAY = "font-family:Impact,'Arial Narrow Bold','Helvetica Neue',Arial,sans-serif;font-weight:normal;text-transform:uppercase;";
const BODY = "font-family:Helvetica,Arial,sans-serif;";

/**
 * The launch-announcement template the admin starts from: the brand's black-and-white look, the
 * launch time from the countdown setting (while it is still ahead), the tagline and subtitle
 * from the app settings, and one call to action. Written within the e-mail sanitiser's
 * allow-list, so what the admin loads is what gets sent. Links are site-relative; they are made
 * absolute when the message is sent.
 */
export async function launchTemplate(ctx: AppContext): Promise<string> {
  const settings = await getPublicSettings(ctx);
  const brand = escapeHtml(ctx.config.brand.name);
  const launch = new Date(settings.countdown_date);
  const upcoming = !Number.isNaN(launch.getTime()) && launch.getTime() > ctx.clock.now().getTime();
  const when = upcoming ? `Doors open ${escapeHtml(formatLaunchTime(launch))}.` : "The collection is live now.";

  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
<tr><td style="${BODY}font-size:11px;letter-spacing:3px;text-transform:uppercase;color:#6b6b6b;padding:0 0 14px;">Limited edition · Early access</td></tr>
<tr><td align="center" bgcolor="#0b0b0b" style="background-color:#0b0b0b;border-radius:4px;padding:44px 24px 40px;">
<p style="${DISPLAY}font-size:18px;letter-spacing:8px;color:#bdbdbd;margin:0 0 18px;">${brand}</p>
<h1 style="${DISPLAY}font-size:42px;line-height:1.02;letter-spacing:1px;color:#ffffff;margin:0 0 16px;">The drop is almost here</h1>
<p style="${BODY}font-size:15px;line-height:1.5;color:#d6d6d6;margin:0;">${escapeHtml(settings.homepage_subtitle)}</p>
</td></tr>
<tr><td style="${BODY}font-size:16px;line-height:1.65;color:#141414;padding:32px 4px 8px;">
<p style="margin:0 0 16px;">You signed up for early access, so you hear it first: our next limited-edition collection is about to go live. <strong>${when}</strong></p>
<p style="margin:0 0 16px;">Every piece is made in a small run. When a size is gone, it is gone — there are no restocks.</p>
<ul style="margin:0 0 8px;padding:0 0 0 20px;">
<li style="margin:0 0 6px;">Early-access subscribers shop the drop first.</li>
<li style="margin:0 0 6px;">Limited quantities of every colour and size.</li>
<li style="margin:0 0 6px;">Secure checkout, with tracking on every order.</li>
</ul>
</td></tr>
<tr><td align="center" style="padding:20px 0 28px;">
<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td align="center" bgcolor="#0b0b0b" style="background-color:#0b0b0b;border-radius:4px;">
<a href="/store" target="_blank" style="${BODY}display:inline-block;padding:15px 34px;font-size:14px;font-weight:bold;letter-spacing:2px;text-transform:uppercase;color:#ffffff;text-decoration:none;">Shop the drop</a>
</td></tr></table>
</td></tr>
<tr><td style="border-top:1px solid #e4e4e4;padding:22px 4px 0;${BODY}font-size:14px;line-height:1.6;color:#4a4a4a;">
<p style="margin:0 0 4px;font-style:italic;">${escapeHtml(settings.homepage_tagline)}</p>
<p style="margin:0;">— The ${brand} team</p>
</td></tr>
</table>`;
}
