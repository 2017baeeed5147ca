import { setLogDestination } from "#server/observability/log";

/** One line of the store's log, parsed (server/observability/log.ts). */
export interface LogRecord {
  level: string;
  msg: string;
  requestId?: string;
  err?: { type: string; message: string; stack: string };
  [field: string]: unknown;
}

const written: string[] = [];
let errorsExpected = false;

/** From now on the store's log lines are kept here, not written to stdout (each-file.ts, per test). */
export function captureLog(): void {
  written.length = 0;
  errorsExpected = false;
  setLogDestination({ write: (line: string) => void written.push(line) });
}

/** The raw text written since the test began. */
export function loggedText(): string {
  return written.join("");
}

/** Every line written since the test began, each parsed as JSON (a line that is not JSON throws). */
export function loggedLines(): LogRecord[] {
  return loggedText()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogRecord);
}

/** The messages of the lines at one level, in order. */
export function loggedAt(level: string): string[] {
  return loggedLines()
    .filter((line) => line.level === level)
    .map((line) => line.msg);
}

/** This test means to log an error: each-file.ts does not fail it for that. */
export function expectLoggedErrors(): void {
  errorsExpected = true;
}

/** The error lines no test asked for (each-file.ts fails the test on any). */
export function unexpectedErrors(): LogRecord[] {
  return errorsExpected ? [] : loggedLines().filter((line) => line.level === "error" || line.level === "fatal");
}
