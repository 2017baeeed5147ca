/**
 * What no log line may carry (issue 27): e-mail addresses, card numbers, cookies, tokens, keys and
 * passwords. Applied to each finished JSON line, so a message, an error's stack or a field a
 * caller forgot is masked alike. Each pattern matches only characters JSON leaves unescaped, so the
 * line stays valid JSON.
 */

const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+/g;
/**
 * 13 to 19 digits, alone or grouped by spaces or dashes, as a card number is written. Not the
 * digit-only groups of a UUID (a request id's first three or last two groups pass Luhn's check for
 * about one id in 7,700, and a masked id names no line): a run that a UUID's next groups follow,
 * or that its first three precede, is left alone.
 */
const CARD_LIKE = /(?<![\w.]|[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-)\d(?:[ -]?\d){12,18}(?![\w.]|-[\da-f]{4}-[\da-f]{12}(?![\w.]))/gi;
/** Stripe's and Postmark's keys and secrets as they appear in messages and URLs. */
const VENDOR_KEY = /\b(?:sk|pk|rk|whsec)_(?:test_|live_)?[A-Za-z0-9]{6,}/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]+=*/gi;
/** A secret in a query string or a cookie header written out: name=value. */
const SECRET_PAIR = /\b((?:session|cart|flash|token|access_token|code|secret|password|key|pass|signature|client_secret)=)[^&;\s"\\]+/gi;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * A run of digits with the card number masked, or as it was when it holds none. The run may have
 * taken digits written after the card (an expiry, "4242 4242 4242 4242 12/30"), and then the whole
 * fails Luhn's check: so each 13-to-19-digit start of it that ends where a group ends is tried too,
 * longest first, and what follows the card is kept.
 */
function maskCardIn(run: string): string {
  const digits = run.replace(/\D/g, "");
  for (let length = Math.min(19, digits.length); length >= 13; length--) {
    let end = 0;
    for (let seen = 0; seen < length; end++) if (run[end] !== " " && run[end] !== "-") seen++;
    const rest = run.slice(end);
    if ((rest === "" || rest[0] === " " || rest[0] === "-") && luhn(digits.slice(0, length))) return `[card]${rest}`;
  }
  return run;
}

/** The line with every e-mail, card number, key and secret pair replaced by a word in brackets. */
export function maskSecrets(line: string): string {
  // The e-mail pattern tries up to 64 characters back from every position: 9 µs on a request line
  // that has no "@" at all, three quarters of the masking's cost.
  return (line.includes("@") ? line.replace(EMAIL, "[email]") : line)
    .replace(CARD_LIKE, maskCardIn)
    .replace(VENDOR_KEY, "[key]")
    .replace(BEARER, "$1 [redacted]")
    .replace(SECRET_PAIR, "$1[redacted]");
}

/**
 * Field names whose values never reach a line (pino's redaction), at the top and one level down:
 * the masking above catches values by their look, this catches them by their name.
 */
const SECRET_KEYS = [
  "password",
  "newPassword",
  "token",
  "cookie",
  "authorization",
  "secret",
  "sessionSecret",
  "previousSessionSecrets",
  "email",
  "customerEmail",
  "cardNumber",
  "cvc",
  "expiry",
  "set-cookie",
];
export const REDACTED_PATHS = [
  ...SECRET_KEYS.map((key) => `["${key}"]`),
  ...SECRET_KEYS.map((key) => `*["${key}"]`),
  'headers["cookie"]',
  'headers["authorization"]',
  '*.headers["cookie"]',
  '*.headers["authorization"]',
];
