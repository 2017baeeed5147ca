import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { mockServer } from "../mocks/server";
import { captureLog, unexpectedErrors } from "./log-capture";

// A console.error during a test is a defect: record it and fail the test that caused it.
const consoleErrors: unknown[][] = [];
const originalError = console.error;
beforeEach(() => {
  consoleErrors.length = 0;
  console.error = (...args: unknown[]) => {
    consoleErrors.push(args);
    originalError(...args);
  };
});
afterEach(() => {
  console.error = originalError;
  expect(consoleErrors, "console.error was called during the test").toEqual([]);
});

// The same for the store's log: an error line nobody expected (expectLoggedErrors) fails the test.
beforeEach(() => captureLog());
afterEach(() => {
  const errors = unexpectedErrors();
  for (const line of errors) originalError(JSON.stringify(line));
  expect(
    errors.map((line) => line.msg),
    "an error was logged during the test",
  ).toEqual([]);
});

// Third-party HTTP goes through msw; a request nobody mocked is an error, never a real call.
beforeAll(() => mockServer.listen({ onUnhandledRequest: "error" }));
afterEach(() => mockServer.resetHandlers());
afterAll(() => mockServer.close());
