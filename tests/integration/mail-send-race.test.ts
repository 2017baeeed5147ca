// Two sends of one keyed message at once (a lease that ran out under a slow send, an admin's resend
// beside the job): one message is kept and both callers get it, in the local outbox and with
// Postmark, instead of the second failing on the key's unique index.
import { beforeEach, describe, expect, it } from "vitest";
import { mailerFor } from "#server/integrations/mail";
import { postmarkState } from "../mocks/postmark";
import { createTestContext, type TestContext } from "../setup/context";

const postmark = createTestContext({ POSTMARK_SERVER_TOKEN: "pm-token", POSTMARK_FROM: "store@legacy.test" });
const outbox = createTestContext();

beforeEach(() => postmarkState.reset());

let n = 0;
const keyed = () => {
  n += 1;
  return {
    stream: "outbound" as const,
    to: `race${n}@example.com`,
    subject: `Order #${n} confirmed`,
    html: "<p>Thanks</p>",
    idempotencyKey: `order-${n}-race`,
  };
};
const kept = (c: TestContext, key: string) =>
  c.db.selectFrom("mailMessages").select(["id", "status"]).where("idempotencyKey", "=", key).where("status", "<>", "failed").execute();

describe.each([
  ["the local outbox", outbox, "stored"],
  ["Postmark", postmark, "sent"],
] as const)("two sends of one keyed message at once, through %s", (_name, c, status) => {
  it("keep one message and answer both callers with it", async () => {
    const mail = keyed();
    const mailer = mailerFor(c);
    const [first, second] = await Promise.all([mailer.send(mail), mailer.send(mail)]);
    const rows = await kept(c, mail.idempotencyKey);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe(status);
    // Both callers are told about the one message the store kept (the second may also have recorded a failed try).
    expect([first.recordId, second.recordId]).toContain(rows[0]!.id);
    expect([first.status, second.status]).toContain(status);
    if (c === postmark) expect(postmarkState.accepted.filter((m) => m.To === mail.to)).toHaveLength(1);
  });
});
