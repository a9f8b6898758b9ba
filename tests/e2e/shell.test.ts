import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/compress";
import { getMimeType } from "hono/utils/mime";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

const site = setUpBrowserSite();

async function openPage(path: string, width = 1280): Promise<Page> {
  const context = await site.browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(`${site.server.url}${path}`);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  Object.assign(page, { errors });
  return page;
}

describe("site shell", () => {
  it("serves the home page as complete HTML with its metadata", async () => {
    const response = await fetch(`${site.server.url}/`, { headers: { "Accept-Encoding": "gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    const html = await response.text();
    expect(html).toContain("<title>Home | Ember Verse</title>");
    expect(html).toMatch(/<meta name="description" content="[^"]+"/);
    expect(html).toContain('<meta name="robots" content="index, follow"');
    expect(html).toContain(`<link rel="canonical" href="${site.server.url}/"`);
    expect(html).toContain('<meta property="og:title" content="Home | Ember Verse"');
    expect(html).toContain('<meta property="og:type" content="website"');
    expect(html).toContain('<meta name="twitter:card"');
    expect(html).toContain("Enter the Collection");
    // An anonymous page is one copy shared by every reader (the page cache): no nonce, which must
    // never be reused; its policy names the hash of each inline script instead.
    expect(response.headers.get("etag")).toMatch(/^(?:W\/)?"[\w-]{27}-gzip"$/);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).not.toContain("'nonce-");
    for (const [, script = ""] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
      const hash = crypto.createHash("sha256").update(script).digest("base64");
      expect(policy).toContain(`'sha256-${hash}'`);
    }
    expect(html).not.toContain(" nonce=");
  });

  it("serves hashed assets compressed at build, cached for a year, with a script's headers only", async () => {
    const html = await (await fetch(`${site.server.url}/`)).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0] ?? "";
    const built = fs.readFileSync(
      path.join(import.meta.dirname, "../../build/client", asset),
      "utf8",
    );
    for (const encoding of ["br", "gzip"]) {
      const response = await fetch(`${site.server.url}${asset}`, {
        headers: { "Accept-Encoding": encoding },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-encoding")).toBe(encoding);
      expect(await response.text()).toBe(built);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toBeNull();
    }
    const plain = await fetch(`${site.server.url}${asset}`, {
      headers: { "Accept-Encoding": "identity" },
    });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(built);
  });

  it("serves every text file the build wrote to /assets over 1 KB compressed, as each client accepts", async () => {
    const assetsDir = path.join(import.meta.dirname, "../../build/client/assets");
    const textFiles = fs.readdirSync(assetsDir).filter((file) => {
      const isText = COMPRESSIBLE_CONTENT_TYPE_REGEX.test(getMimeType(file) ?? "");
      return isText && fs.statSync(path.join(assetsDir, file)).size > 1024;
    });
    // React Router writes its manifest after the browser build, beside the built scripts.
    expect(textFiles.some((file) => file.startsWith("manifest-"))).toBe(true);
    const negotiations = [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
      ["br;q=0, gzip", "gzip"],
      ["br;q=0, gzip;q=0", null],
    ] as const;
    for (const file of textFiles) {
      const built = fs.readFileSync(path.join(assetsDir, file));
      for (const [acceptEncoding, encoding] of negotiations) {
        const response = await fetch(`${site.server.url}/assets/${file}`, {
          headers: { "Accept-Encoding": acceptEncoding },
        });
        expect(response.headers.get("content-encoding"), `${file}, ${acceptEncoding}`).toBe(
          encoding,
        );
        expect(response.headers.get("vary") ?? "", file).toMatch(/accept-encoding/i);
        expect(Buffer.from(await response.arrayBuffer()).equals(built), file).toBe(true);
      }
    }
  });

  it("paints a page before it fetches its scripts, then hydrates it, fresh and from the cache", async () => {
    const html = await (await fetch(`${site.server.url}/poetry/the-kitchen-table`)).text();
    expect(html).not.toContain('rel="modulepreload"');
    // The first visit is answered from the render that fills the page cache, the second from
    // memory: the deferred scripts run under its hash-based policy both ways.
    for (let visit = 0; visit < 2; visit++) {
      const page = await openPage("/poetry/the-kitchen-table", 375);
      const timing = await page.evaluate(() => ({
        firstPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
        scripts: performance
          .getEntriesByType("resource")
          .filter((entry) => new URL(entry.name).pathname.startsWith("/assets/"))
          .filter((entry) => entry.name.endsWith(".js"))
          .map((entry) => entry.startTime),
      }));
      expect(timing.scripts.length).toBeGreaterThan(3);
      expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.firstPaint);
      expect((page as unknown as { errors: string[] }).errors).toEqual([]);
      await page.context().close();
    }
  });

  it("paints a short page only once its footer is whole, so the footer never moves up", async () => {
    // A proxy that sends the journal page in two parts, pausing in the middle of the footer: the
    // browser paints while it parses, so this is where a half-built footer would be painted.
    const proxy = http.createServer(async (request, response) => {
      const upstream = await fetch(`${site.server.url}${request.url}`);
      const headers = Object.fromEntries(upstream.headers);
      delete headers["content-encoding"];
      delete headers["content-length"];
      response.writeHead(upstream.status, headers);
      const body = await upstream.text();
      const pause =
        request.url === "/journal" ? body.indexOf("<form", body.indexOf("<footer")) : -1;
      if (pause < 0) return response.end(body);
      response.write(body.slice(0, pause));
      setTimeout(() => response.end(body.slice(pause)), 400);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const context = await site.browser.newContext({ viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const seen = { footerWholeAtFirstFrame: false, shifts: 0 };
      Object.assign(window, { seen });
      requestAnimationFrame(() => {
        seen.footerWholeAtFirstFrame = document.querySelector("footer form button") !== null;
      });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          seen.shifts += (entry as unknown as { value: number }).value;
      }).observe({ type: "layout-shift", buffered: true });
    });
    const { port } = proxy.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/journal`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    expect(await page.evaluate(() => (window as unknown as { seen: unknown }).seen)).toEqual({
      footerWholeAtFirstFrame: true,
      shifts: 0,
    });
    await context.close();
    proxy.close();
  });

  it("holds a script-driven form submitted before its scripts have run, so nothing lands in a URL", async () => {
    const context = await site.browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    // Scripts that never arrive: the pages stay as the server rendered them.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.goto(`${site.server.url}/poetry`);
    await page.getByLabel("The weekly ember digest").fill("reader@example.com");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.goto(`${site.server.url}/contribute`);
    await page.getByLabel(/^Email/).fill("poet@example.com");
    await page.getByRole("button", { name: "Submit", exact: true }).click();
    // A form with its own method and action still works without scripts.
    await page.goto(`${site.server.url}/login`);
    await page.getByLabel("Email address").fill("reader@example.com");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.waitForURL(`${site.server.url}/login?sent=1`);
    expect(requested.filter((url) => url.includes("example.com"))).toEqual([]);
    await context.close();
  });

  it("answers an unknown path with the 404 page and status", async () => {
    const response = await fetch(`${site.server.url}/no/such/page`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("404 Page Not Found");
    const page = await openPage("/no/such/page");
    await expect(
      page.getByRole("heading", { name: "404 Page Not Found" }).isVisible(),
    ).resolves.toBe(true);
    await page.context().close();
  });

  it("shows the header links for an anonymous reader and navigates with them", async () => {
    const page = await openPage("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    const names = await nav.getByRole("link").allTextContents();
    expect(names).toEqual([
      "Home",
      "Poetry",
      "Daily Ember",
      "Books",
      "Journal (local)",
      "Guest Voices",
      "Login",
    ]);
    await nav.getByRole("link", { name: "Books" }).click();
    await page.waitForURL(`${site.server.url}/books`);
    // Client-side navigation: the title follows the new page's render.
    await page.waitForFunction(() => document.title === "Books | Ember Verse");
    const footer = page.getByRole("contentinfo");
    expect(
      await footer.getByRole("navigation", { name: "Footer" }).getByRole("link").allTextContents(),
    ).toEqual(["Home", "Poetry", "Daily Embers", "Books"]);
    // Pages the footer's own links do not name sit on a second line, outside that list.
    expect(
      await footer
        .getByRole("navigation", { name: "About this site" })
        .getByRole("link")
        .allTextContents(),
    ).toEqual(["About", "Privacy"]);
    expect(await footer.textContent()).toContain("© 2025");
    expect(await footer.getByRole("textbox").getAttribute("type")).toBe("email");
    expect((page as unknown as { errors: string[] }).errors).toEqual([]);
    await page.context().close();
  });

  it("opens the mobile menu, locks scrolling, and closes on Escape and on the backdrop", async () => {
    const page = await openPage("/", 375);
    expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(false);
    const toggle = page.getByRole("button", { name: "Open menu" });
    await toggle.click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await dialog.getByRole("link").allTextContents()).toContain("Journal (local)");
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe("hidden");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe("hidden");
    // Focus returns to the toggle, so a keyboard reader is not lost.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      "Open menu",
    );

    await page.keyboard.press("Enter");
    await dialog.waitFor();
    // A locator click waits for the backdrop to finish fading in, as a person's tap would.
    await page.getByTestId("menu-backdrop").click({ position: { x: 20, y: 400 } });
    await dialog.waitFor({ state: "detached" });

    await toggle.click();
    await dialog.getByRole("link", { name: "Poetry" }).click();
    await page.waitForURL(`${site.server.url}/poetry`);
    await dialog.waitFor({ state: "detached" });
    await page.context().close();
  });
});

describe("operator CLI beside a running server", () => {
  it("hands database commands to the server that holds the embedded database", async () => {
    const migrate = await site.server.cli("migrate");
    expect(migrate).toMatchObject({ code: 0, stdout: "migrations applied\n" });
    const seed = await site.server.cli("seed-demo");
    expect(seed).toMatchObject({
      code: 0,
      stdout: "the database already has poems; nothing seeded\n",
    });
  });

  // Five CLI processes, each opening a database of its own: minutes on a busy machine.
  it("backs up the running site and restores it into an empty data directory", async () => {
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const { runCli } = await import("../helpers/server.ts");
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ev-backup-"));
    const file = path.join(scratch, "site.backup.gz");
    try {
      const backup = await site.server.cli("backup", file);
      expect(backup.code).toBe(0);
      expect(backup.stdout).toMatch(/^backup written to .*: books \d+, .*poems \d+, .*users \d+/);
      expect((await site.server.cli("backup", file)).stderr).toContain(
        "exists; choose a new file name",
      );

      const env = { ...process.env, DATA_DIR: path.join(scratch, "restored") };
      const restored = await runCli(["restore", file], env);
      expect(restored.code).toBe(0);
      // The same tables and counts as the backup reported.
      expect(restored.stdout.split(": ")[1]).toBe(backup.stdout.split(": ")[1]);
      const twice = await runCli(["restore", file], env);
      expect(twice.code).toBe(1);
      expect(twice.stderr).toContain("the database is not empty");

      // The content alone, as readable JSON, into another site.
      const exportFile = path.join(scratch, "content.json");
      const exported = await site.server.cli("export", exportFile);
      expect(exported.stdout).toMatch(/^content exported to .*: books \d+, embers \d+, poems \d+/);
      expect(JSON.parse(fs.readFileSync(exportFile, "utf8")).scope).toBe("content");
      const elsewhere = { ...process.env, DATA_DIR: path.join(scratch, "elsewhere") };
      const imported = await runCli(["import", exportFile], elsewhere);
      expect(imported.code).toBe(0);
      expect(imported.stdout.split(": ")[1]).toBe(exported.stdout.split(": ")[1]);
      expect((await runCli(["import", file], elsewhere)).code).toBe(2);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }, 180_000);

  it("explains misuse with a non-zero exit", async () => {
    const unknown = await site.server.cli("frobnicate");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command: frobnicate");
    const extra = await site.server.cli("migrate", "now");
    expect(extra).toMatchObject({ code: 2, stderr: "usage: migrate\n" });
    const help = await site.server.cli("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("seed-demo");
  });
});

describe("operator CLI with no server running", () => {
  it("opens the embedded database itself", async () => {
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const { runCli } = await import("../helpers/server.ts");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ev-cli-"));
    const env = { ...process.env, DATA_DIR: dataDir };
    try {
      expect(await runCli(["seed-demo"], env)).toMatchObject({
        code: 0,
        stdout: "demo content seeded\n",
      });
      expect(await runCli(["seed-demo"], env)).toMatchObject({
        code: 0,
        stdout: "the database already has poems; nothing seeded\n",
      });
      expect(fs.existsSync(path.join(dataDir, "pglite.lock"))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // Two CLI processes, the first making an embedded database from nothing (initdb and every
    // migration, with no template): as long as the backup test's restores on a busy machine.
  }, 180_000);
});

describe("the server process", () => {
  async function run(env: Record<string, string>) {
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, ["server/main.ts"], {
      env: { ...process.env, NODE_ENV: "production", PORT: "0", ...env },
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    return { code, output };
  }

  it("stops with one clear line on a bad setting", async () => {
    const { code, output } = await run({ PORT: "abc" });
    expect(code).toBe(1);
    expect(output).toContain('PORT must be a number from 0 to 65535, got \\"abc\\"');
    expect(output.trim().split("\n")).toHaveLength(1);
  });

  it("stops with one clear line when the database cannot be reached", async () => {
    const { code, output } = await run({
      DATABASE_URL: "postgres://postgres@127.0.0.1:1/none",
      SESSION_SECRET: "a-shared-secret-of-at-least-32-characters",
    });
    expect(code).toBe(1);
    expect(output).toContain("Cannot reach the database");
    expect(output.trim().split("\n")).toHaveLength(1);
  });

  it("finishes in-flight work and exits 0 on SIGTERM, releasing the data directory", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const { startServer } = await import("../helpers/server.ts");
    const running = await startServer();
    const inFlight = fetch(`${running.url}/poetry`);
    // Long enough for the connection to be accepted, short of the page being rendered.
    await new Promise((resolve) => setTimeout(resolve, 20));
    running.process.kill("SIGTERM");
    expect((await inFlight).status).toBe(200);
    const code = await new Promise<number | null>((resolve) =>
      running.process.exitCode !== null
        ? resolve(running.process.exitCode)
        : running.process.once("exit", resolve),
    );
    expect(code).toBe(0);
    expect(running.logs.join("\n")).toContain('"msg":"stopped"');
    expect(fs.existsSync(path.join(running.dataDir, "pglite.lock"))).toBe(false);
    await running.stop();
  });
});
