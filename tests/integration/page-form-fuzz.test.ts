// Every form a page renders, filled in as a person would and posted back as a browser without
// JavaScript posts it, then with one field at a time made hostile, left out or sent twice: the
// built store with two workers, each page as the stranger, shopper or admin who sees it. The forms
// are read from the pages themselves (each `<form method="post">`, its inputs, selects, radios,
// textareas and submit buttons), so a form added to a page later is posted too. Nothing may answer
// 500 or fail to answer, no worker may die, and every log line is the logger's JSON at info.
import { Parser } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { BOT_FIELD } from "#server/contracts/bots";
import { DEFAULT_ADMIN } from "#server/config";
import { builtStoreForFile } from "../setup/built-store-fixture";
import { answeringPids, sendRaw } from "../setup/raw-http";
import { cookiesOf, failuresOf, loudLines } from "../setup/fuzz";

const built = builtStoreForFile("page-form-fuzz");

const send = (method: string, pathname: string, headers: Record<string, string>, body?: string) =>
  sendRaw(built.store.baseUrl, method, pathname, headers, body);
const postJson = (pathname: string, body: unknown, cookie = "") =>
  send(
    "POST",
    pathname,
    { "Content-Type": "application/json", Accept: "application/json", ...(cookie ? { Cookie: cookie } : {}) },
    JSON.stringify(body),
  );

/** A post form as the page renders it: where it posts, and its fields in order (a submit button's name and value last). */
interface PageForm {
  action: string;
  fields: [string, string][];
}

/**
 * What a shopper or an admin would type into an empty field, by its type and name, so the form as
 * posted gets past "required" and each hostile field is read beside good ones. The honeypot stays
 * empty, as a person leaves it.
 */
function filledIn(name: string, type: string): string {
  if (name === BOT_FIELD) return "";
  const sample: Record<string, string> = {
    email: "fan@example.com",
    password: DEFAULT_ADMIN.password,
    date: "2027-01-15",
    time: "12:00",
    number: "1",
    url: "https://example.com/media/intro.mp4",
    tel: "5125550100",
    "datetime-local": "2027-01-15T12:00",
  };
  const byName: Record<string, string> = {
    username: DEFAULT_ADMIN.username,
    zipCode: "73301",
    state: "TX",
    country: "US",
    orderNumber: "AF15B180",
    entriesCloseAt: "2027-01-16T12:00",
    units: "S=1",
  };
  return byName[name] ?? sample[type] ?? "Something to say about the drop.";
}

/** A textarea's text as React escapes it (htmlparser2 leaves a textarea's text as it is). */
const unescapeReact = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#x27);/g, (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'" })[name]!);

/** The post forms of a page, filled in as a person would: empty fields typed into, the first choice of each radio group and select taken. */
function postFormsOf(html: string, page: string): PageForm[] {
  const forms: PageForm[] = [];
  let form: (PageForm & { buttons: [string, string][] }) | null = null;
  let select: { name: string; value: string | null } | null = null;
  let radios = new Map<string, string>();
  let textarea: { name: string; text: string } | null = null;
  const parser = new Parser(
    {
      onopentag(tag, attributes) {
        if (tag === "form") {
          const url = new URL(attributes.action ?? page, "http://store.test/");
          const post = (attributes.method ?? "get").toLowerCase() === "post";
          form = post ? { action: url.pathname + url.search, fields: [], buttons: [] } : null;
          radios = new Map();
          return;
        }
        if (!form) return;
        // An option's value: the first, unless one is selected.
        if (tag === "option" && select) {
          const value = attributes.value ?? "";
          if (value !== "" && (!select.value || attributes.selected !== undefined)) select.value = value;
          return;
        }
        const { name } = attributes;
        if (!name) return;
        const type = (attributes.type ?? "text").toLowerCase();
        if (tag === "input" && (type === "submit" || type === "image")) form.buttons.push([name, attributes.value ?? ""]);
        else if (tag === "input" && type === "radio") {
          if (!radios.has(name) || attributes.checked !== undefined) radios.set(name, attributes.value ?? "on");
        } else if (tag === "input" && type === "checkbox") {
          if (attributes.checked !== undefined) form.fields.push([name, attributes.value ?? "on"]);
        } else if (tag === "input") form.fields.push([name, attributes.value || (type === "hidden" ? "" : filledIn(name, type))]);
        if (tag === "button" && (attributes.type ?? "submit") === "submit") form.buttons.push([name, attributes.value ?? ""]);
        if (tag === "select") select = { name, value: null };
        if (tag === "textarea") textarea = { name, text: "" };
      },
      ontext(text) {
        if (textarea) textarea.text += text;
      },
      onclosetag(tag) {
        if (tag === "select" && select && form) {
          form.fields.push([select.name, select.value ?? ""]);
          select = null;
        }
        if (tag === "textarea" && textarea && form) {
          form.fields.push([textarea.name, unescapeReact(textarea.text) || filledIn(textarea.name, "textarea")]);
          textarea = null;
        }
        if (tag === "form" && form) {
          const done = form;
          done.fields.push(...radios);
          // One submission per named submit button (each is an intent of its own), or one without.
          if (done.buttons.length === 0) forms.push({ action: done.action, fields: done.fields });
          for (const button of done.buttons) forms.push({ action: done.action, fields: [...done.fields, button] });
          form = null;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return forms;
}

/** Hostile values, already percent-encoded as they go on the wire (some are bytes no browser would send). */
const HOSTILE = [
  "",
  "%20",
  "%",
  "%E2%82",
  "%FF%FE",
  "%ED%A0%80",
  "%00",
  "-1",
  "0",
  "1.5",
  "1e400",
  "NaN",
  "2147483648",
  "99999999999999999999",
  "a".repeat(5000),
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "2026-02-30",
  "..%2F..%2Fetc%2Fpasswd",
  "%E2%80%AE",
  "__proto__",
];

const encode = (fields: [string, string][]) => fields.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);

/** The form as posted, then each field hostile (every value), left out, and sent twice. */
function variants({ fields }: PageForm): string[] {
  const plain = encode(fields);
  const bodies = [plain.join("&")];
  fields.forEach(([name], index) => {
    const others = (replacement: string[]) => [...plain.slice(0, index), ...replacement, ...plain.slice(index + 1)].join("&");
    for (const value of HOSTILE) bodies.push(others([`${encodeURIComponent(name)}=${value}`]));
    bodies.push(others([]));
    bodies.push(others([plain[index]!, `${encodeURIComponent(name)}=${HOSTILE[index % HOSTILE.length]}`]));
  });
  return bodies;
}

describe("every page's forms posted back with hostile fields", () => {
  it("answers each post below 500, keeps both workers and writes no line above info", async () => {
    const login = await postJson("/api/login", DEFAULT_ADMIN);
    expect(login.status).toBe(200);
    const admin = cookiesOf(login);
    const sizedMade = await postJson(
      "/api/admin/products",
      {
        name: "Form Tee",
        description: "A tee for the forms.",
        price: 40,
        sizes: [
          { label: "S", inventory: 50 },
          { label: "M", inventory: 50 },
        ],
      },
      admin,
    );
    expect(sizedMade.status, sizedMade.body).toBe(201);
    const sized = (JSON.parse(sizedMade.body) as { id: number }).id;
    const plainMade = await postJson(
      "/api/admin/products",
      { name: "Form Cap", description: "A cap for the forms.", price: 20, inventory: 500 },
      admin,
    );
    expect(plainMade.status, plainMade.body).toBe(201);
    const plain = (JSON.parse(plainMade.body) as { id: number }).id;
    const drawnMade = await postJson(
      "/api/admin/products",
      { name: "Draw Tee", description: "A tee sold by draw.", price: 60, sizes: [{ label: "S", inventory: 2 }] },
      admin,
    );
    const drawn = (JSON.parse(drawnMade.body) as { id: number }).id;
    const draw = await postJson(
      "/api/admin/draws",
      {
        productId: drawn,
        entriesOpenAt: new Date(Date.now() + 1_500).toISOString(),
        entriesCloseAt: new Date(Date.now() + 86_400_000).toISOString(),
        claimMinutes: 60,
        units: { S: 2 },
      },
      admin,
    );
    expect(draw.status, draw.body).toBe(201);
    const drawId = (JSON.parse(draw.body) as { id: number }).id;
    const bag = await postJson("/api/cart", { productId: plain, quantity: 1 });
    expect(bag.status, bag.body).toBe(201);
    const shopper = cookiesOf(bag);
    expect((await postJson("/api/cart", { productId: sized, quantity: 1, size: "M" }, shopper)).status).toBe(201);
    // The draw's entries open a moment after it is made.
    await new Promise((resolve) => setTimeout(resolve, 1_600));

    const pages: [string, string][] = [
      ["/", ""],
      ["/countdown", ""],
      ["/support", ""],
      ["/orders", ""],
      ["/admin/login", ""],
      [`/draws/${drawId}`, ""],
      [`/store/${sized}`, shopper],
      [`/store/${plain}`, shopper],
      ["/cart", shopper],
      ["/checkout", shopper],
      ["/admin", admin],
      ["/admin/settings", admin],
      ["/admin/app-settings", admin],
      ["/admin/draws", admin],
      [`/admin/draws/${drawId}`, admin],
    ];
    const forms: (PageForm & { cookie: string })[] = [];
    for (const [page, cookie] of pages) {
      const answer = await send("GET", page, { Accept: "text/html", ...(cookie ? { Cookie: cookie } : {}) });
      expect(answer.status, page).toBe(200);
      // sendRaw reads Latin-1: the page's UTF-8 text back from its bytes.
      for (const form of postFormsOf(Buffer.from(answer.body, "latin1").toString("utf8"), page)) {
        // The admin's sign-out: posted, the admin's own forms after it would be a stranger's.
        if (cookie === admin && form.action === "/admin") continue;
        if (!forms.some((seen) => seen.cookie === cookie && JSON.stringify(seen) === JSON.stringify({ ...form, cookie })))
          forms.push({ ...form, cookie });
      }
    }
    const actions = new Set(forms.map((form) => form.action.replace(/\/\d+(?=$|[/?])/g, "/:id")));
    // What the pages offered, so a page that stopped rendering its forms fails here.
    for (const action of [
      "/?index",
      "/support",
      "/orders",
      "/admin/login",
      "/draws/:id",
      "/store/:id",
      "/cart",
      "/checkout",
      "/admin/settings",
      "/admin/app-settings",
      "/admin/draws",
    ]) {
      expect(actions, action).toContain(action);
    }

    const before = await answeringPids(built.store.baseUrl, 2);
    expect(before.size).toBe(2);
    const posts = forms.flatMap((form) => variants(form).map((body) => ({ action: form.action, cookie: form.cookie, body })));
    expect(posts.length).toBeGreaterThan(1500);
    const failures = await failuresOf(
      built.store.baseUrl,
      posts.map(({ action, cookie, body }) => ({
        method: "POST",
        path: action,
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", ...(cookie ? { Cookie: cookie } : {}) },
        body,
      })),
    );
    expect(failures).toEqual([]);
    const after = await answeringPids(built.store.baseUrl, 2, 5_000);
    expect([...after].sort()).toEqual([...before].sort());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(loudLines(built.store.log())).toEqual([]);
  }, 240_000);
});
