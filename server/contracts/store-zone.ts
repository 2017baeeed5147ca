/**
 * The store's own time zone. Launch and release times are entered as its wall-clock time, and
 * dates are shown in it, so the admin, the e-mails and every visitor read the same hour.
 * Its own file, without date-fns-tz, so the countdown can name it without loading that (decision 0029).
 */
export const STORE_TIME_ZONE = "America/New_York";
