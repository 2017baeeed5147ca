import { http, HttpResponse } from "msw";

/** Postmark's API as the `postmark` SDK reaches it. */
export const POSTMARK_API = "https://api.postmarkapp.com";

type Accepted = { MessageID: string; To: string; Subject: string; Metadata: Record<string, string> };

/** What the default handler accepted, for the outbound search to answer from. */
export const postmarkState = {
  accepted: [] as Accepted[],
  reset() {
    this.accepted.length = 0;
  },
};

export const postmarkHandlers = [
  http.post(`${POSTMARK_API}/email`, async ({ request }) => {
    const body = (await request.json()) as { To: string; Subject: string; Metadata?: Record<string, string> };
    const MessageID = crypto.randomUUID();
    postmarkState.accepted.push({ MessageID, To: body.To, Subject: body.Subject, Metadata: body.Metadata ?? {} });
    return HttpResponse.json({
      To: body.To,
      SubmittedAt: new Date().toISOString(),
      MessageID,
      ErrorCode: 0,
      Message: "OK",
    });
  }),
  // Outbound message search, filtered by `recipient` and one `metadata_<field>=<value>`, as Postmark documents.
  http.get(`${POSTMARK_API}/messages/outbound`, ({ request }) => {
    const params = new URL(request.url).searchParams;
    const recipient = params.get("recipient");
    const metadata = [...params.entries()].filter(([name]) => name.startsWith("metadata_")).map(([name, value]) => [name.slice(9), value]);
    const matches = postmarkState.accepted.filter(
      (m) => (!recipient || m.To === recipient) && metadata.every(([field, value]) => m.Metadata[field!] === value),
    );
    const count = Number(params.get("count") ?? 100);
    const offset = Number(params.get("offset") ?? 0);
    return HttpResponse.json({
      TotalCount: matches.length,
      Messages: matches.slice(offset, offset + count).map((m) => ({
        MessageID: m.MessageID,
        To: [{ Email: m.To, Name: "" }],
        Cc: [],
        Bcc: [],
        Recipients: [m.To],
        ReceivedAt: new Date().toISOString(),
        From: "store@example.test",
        Subject: m.Subject,
        Attachments: [],
        Status: "Sent",
        TrackOpens: false,
        TrackLinks: "None",
        Metadata: m.Metadata,
        MessageStream: "outbound",
        Sandboxed: false,
      })),
    });
  }),
];
