import { http, HttpResponse } from "msw";

/** Postmark's API as the `postmark` SDK reaches it. */
export const POSTMARK_API = "https://api.postmarkapp.com";

export const postmarkHandlers = [
  http.post(`${POSTMARK_API}/email`, async ({ request }) => {
    const body = (await request.json()) as { To: string };
    return HttpResponse.json({
      To: body.To,
      SubmittedAt: new Date().toISOString(),
      MessageID: crypto.randomUUID(),
      ErrorCode: 0,
      Message: "OK",
    });
  }),
];
