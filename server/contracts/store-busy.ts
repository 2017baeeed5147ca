/*
 * What a shopper is told when the database could not be reached for a moment (PostgreSQL
 * restarting or failing over, decision 0041): the API's 503 and the pages' error page say the same.
 */
export const STORE_BUSY_MESSAGE = "The store is busy for a moment. Please try again.";

/** The 503's Retry-After: about what a PostgreSQL restart or a failover takes. */
export const STORE_BUSY_RETRY_AFTER_SECONDS = 3;
