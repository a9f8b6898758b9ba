import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("mail without SMTP_URL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("pglite");
  });
  afterAll(() => t.close());

  it("writes the sign-in message to DATA_DIR/outbox as .eml, with text and HTML parts", async () => {
    const response = await t.app.request("/api/auth/email-link", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "outbox@example.com" }),
    });
    expect(response.status).toBe(200);
    const outbox = path.join(t.dataDir, "outbox");
    const files = fs.readdirSync(outbox).filter((file) => file.endsWith(".eml"));
    expect(files).toHaveLength(1);
    const message = fs.readFileSync(path.join(outbox, files[0] ?? ""), "utf8");
    expect(message).toContain("To: outbox@example.com");
    expect(message).toContain("From: Ember Verse <no-reply@localhost>");
    expect(message).toContain("Content-Type: text/plain");
    expect(message).toContain("Content-Type: text/html");
    expect(message).toMatch(/http:\/\/localhost:3000\/login\/verify\?token=/);
  });
});
