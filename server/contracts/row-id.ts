import { z } from "zod";

/**
 * The largest id a row can have: PostgreSQL's `integer`, every table's id there (SQLite's ids
 * never come near it). A larger number names no row, but sent to PostgreSQL it is an error
 * (22003, out of range), a 500 where a stranger's `/store/3000000000` should be a 404.
 */
export const MAX_ROW_ID = 2_147_483_647;

/** A row's id as an input: a whole number from 1 to MAX_ROW_ID (else `message`, when given). */
export const rowId = (message?: string) =>
  z
    .number(message ? { error: message } : undefined)
    .int(message)
    .positive(message)
    .max(MAX_ROW_ID, message);

/** A row's id written in a path: digits only, no leading zero, at most MAX_ROW_ID; else null. */
export function rowIdIn(value: string | undefined): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ROW_ID ? id : null;
}
