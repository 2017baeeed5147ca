/**
 * The store's own time zone. Launch and release times are entered as its wall-clock time, and
 * dates are shown in it, so the admin, the e-mails and every visitor read the same hour.
 */
export const STORE_TIME_ZONE = "America/New_York";
