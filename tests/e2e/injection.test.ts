import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated, launchBrowser } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

/**
 * Script-injection payloads written through every text a user or admin can enter, then every page
 * that shows them opened in Chromium: no dialog, no script, the text shown as text (SECURITY.md,
 * promise 3).
 */
const PAYLOADS = [
  "<script>window.__injected = 1; alert(1)</script>",
  '<img src=x onerror="window.__injected = 2; alert(2)">',
  '<svg onload="window.__injected = 3; alert(3)"></svg>',
  '"><script>alert(4)</script><a href="javascript:alert(5)">x</a>',
  "</textarea></title><script>alert(6)</script>",
  "\u202Egnp.exe <b onmouseover=alert(7)>tricky</b> \u200B{{7*7}}",
];
const joined = PAYLOADS.join(" ");

let server: RunningServer;
let browser: Browser;
let admin: BrowserContext;
let reader: BrowserContext;

async function signedIn(email: string, isAdmin: boolean) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const link = await server.cli("login-link", email, ...(isAdmin ? ["--admin"] : []));
  const page = await context.newPage();
  await page.goto(link.stdout.trim());
  await page.close();
  return context;
}

/** A JSON call from inside a signed-in page, as the site's own scripts make them. */
async function call<Answer = { id: number }>(
  context: BrowserContext,
  method: string,
  path: string,
  body?: unknown,
) {
  const page = await context.newPage();
  await page.goto(`${server.url}/journal`);
  const result = await page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: await response.json().catch(() => null) };
    },
    { method, path, body },
  );
  await page.close();
  return result as { status: number; json: Answer };
}

/** Opens a page, watching for any dialog or script run by a payload. */
async function visit(context: BrowserContext, path: string, then?: (page: Page) => Promise<void>) {
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(`${server.url}${path}`);
  await hydrated(page);
  await then?.(page);
  await page.waitForTimeout(200);
  const injected = await page.evaluate(() => (window as { __injected?: number }).__injected);
  const text = await page.locator("body").innerText();
  await page.close();
  expect(dialogs, path).toEqual([]);
  expect(injected, path).toBeUndefined();
  return text;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  [admin, reader] = await Promise.all([
    signedIn("poet@example.com", true),
    signedIn("reader@example.com", false),
  ]);

  const tag = await call(admin, "POST", "/api/admin/tags", { name: PAYLOADS[1]?.slice(0, 50) });
  expect(tag.status).toBe(201);
  const poem = await call(admin, "POST", "/api/admin/poems", {
    title: PAYLOADS[0],
    slug: "injected",
    stanzas: PAYLOADS,
    coverUrl: "",
    coverAlt: PAYLOADS[2],
    tagIds: [tag.json.id],
  });
  expect(poem.status).toBe(201);
  const schedule = await call<{ id: number; date: string }[]>(
    admin,
    "GET",
    "/api/admin/embers?limit=1",
  );
  const [today] = schedule.json;
  if (!today) throw new Error("the demo content has no ember for today");
  expect(
    (await call(admin, "PUT", `/api/admin/embers/${today.id}`, { text: joined, date: today.date }))
      .status,
  ).toBe(200);
  const book = await call(admin, "POST", "/api/admin/books", {
    title: PAYLOADS[3],
    slug: "injected-book",
    blurb: joined,
    coverUrl: "https://example.com/cover.jpg",
    buyUrl: "https://example.com/buy",
    pages: [{ title: PAYLOADS[4], content: joined }],
  });
  expect(book.status).toBe(201);
  const whisper = await call(reader, "POST", "/api/poems/injected/whispers", {
    stanzaIndex: 0,
    body: PAYLOADS[5],
  });
  expect(whisper.status).toBe(201);
  const submission = await fetch(`${server.url}/api/guest-submission`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.url },
    body: JSON.stringify({
      name: PAYLOADS[0],
      email: "guest@example.com",
      handle: PAYLOADS[1]?.slice(0, 50),
      bio: PAYLOADS[2],
      poemTitle: PAYLOADS[3],
      poemText: joined,
    }),
  });
  expect(submission.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("injected text stays text", () => {
  it("on the reader's pages", async () => {
    expect(await visit(reader, "/poetry")).toContain(PAYLOADS[0]);
    const poemPage = await visit(reader, "/poetry/injected", async (page) => {
      await page.getByRole("button", { name: "Show whispers" }).click();
      await page
        .locator("section[aria-labelledby=whispers-heading]")
        .getByText("tricky", { exact: false })
        .waitFor();
    });
    expect(poemPage).toContain(PAYLOADS[0]);
    expect(await visit(reader, "/ember")).toContain("<script>window.__injected = 1");
    expect(await visit(reader, "/ember/archive")).toContain("<svg onload=");
    expect(await visit(reader, "/book/injected-book/preview")).toContain('"><script>alert(4)');
    await visit(reader, "/share/poem/injected?s=1");
    await visit(reader, "/");
  });

  it("on the admin's pages, and in the digest preview", async () => {
    for (const tab of ["Poems", "Embers", "Books", "Tags", "Whispers"]) {
      await visit(admin, "/admin", async (page) => {
        await page.getByRole("tab", { name: tab }).click();
        await page.waitForLoadState("networkidle");
      });
    }
    expect(await visit(admin, "/admin/submissions")).toContain(PAYLOADS[3]);
    await visit(admin, "/admin/digest", async (page) => {
      await page.getByRole("button", { name: "Generate Preview" }).click();
      await page.getByText("HTML preview is ready.").waitFor();
      const preview = page.frameLocator("iframe[title='Digest preview']");
      await preview
        .getByText(PAYLOADS[0] ?? "")
        .first()
        .waitFor();
    });
  });

  it("in the page source: escaped, never markup", async () => {
    const html = await (await fetch(`${server.url}/poetry/injected`)).text();
    expect(html).not.toContain("<script>window.__injected");
    expect(html).not.toContain("<img src=x onerror");
    expect(html).toContain("&lt;script&gt;window.__injected");
  });
});
