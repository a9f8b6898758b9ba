import { Hono } from "hono";
import type { SecureHeadersVariables } from "hono/secure-headers";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { securityHeaders } from "./security-headers.ts";

describe("security headers", () => {
  it("gives every response a nonce of its own, across refills of the random pool", async () => {
    const app = new Hono<{ Variables: SecureHeadersVariables }>();
    app.use(securityHeaders(loadConfig({})));
    app.get("/", (c) => c.text(c.get("secureHeadersNonce") ?? ""));
    const nonces = new Set<string>();
    // 256 nonces a fill: this crosses three refills.
    for (let request = 0; request < 800; request++) {
      const response = await app.request("/");
      const nonce = await response.text();
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      expect(response.headers.get("Content-Security-Policy")).toContain(`'nonce-${nonce}'`);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(800);
  });
});
