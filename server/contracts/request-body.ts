/** What a refused request body is told (server/http/requests/request-body.ts reads every body; decision 0040). */
export const REQUEST_BODY_MESSAGES = {
  tooLarge: "The request is too large.",
  notUnicode: "Text must be valid Unicode: this has a broken character in it.",
  notJson: "The request body must be valid JSON.",
  notAForm: "The form could not be read.",
  tooDeep: "The request body is nested too deeply.",
  incomplete: "The request body did not arrive whole.",
} as const;
