import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";
import {
  type SmtpCapture,
  startSmtpCapture,
  subscribeAndReadConfirmation,
} from "../helpers/smtp.ts";

let smtp: SmtpCapture;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(() => smtp?.close());
const site = setUpBrowserSite(() => ({ SMTP_URL: smtp.url }));

/** Subscribes through the API; the confirmation mail's List-Unsubscribe address. */
async function oneClickAddress(email: string): Promise<string> {
  const mail = await subscribeAndReadConfirmation(smtp, site.server.url, email);
  const header = mail.parsed.headerLines.find((line) => line.key === "list-unsubscribe")?.line;
  const address = /<(https?:\/\/[^>]+)>/.exec(header ?? "")?.[1] ?? "";
  expect(new URL(address).pathname).toBe("/api/unsubscribe");
  return address;
}

/**
 * A mail client that cannot POST opens the List-Unsubscribe address in the reader's browser: a
 * page saying whose subscription it ends, with one button.
 */
describe("the unsubscribe address opened in a browser", () => {
  it.each([375, 1280])(
    "shows the masked address and one Unsubscribe button at %i px",
    async (width) => {
      const email = `reader.${width}@example.com`;
      const address = await oneClickAddress(email);
      const context = await site.browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      const opened = await page.goto(address);
      expect(opened?.status()).toBe(200);
      await hydrated(page);
      expect(new URL(page.url()).pathname).toBe("/unsubscribe");
      await page.getByRole("heading", { name: "Unsubscribe from the weekly digest?" }).waitFor();
      const main = page.getByRole("main");
      await expect.poll(() => main.textContent()).toContain(`r•••${width % 10}@example.com`);
      expect(await main.textContent()).not.toContain(email);
      const buttons = main.getByRole("button");
      expect(await buttons.count()).toBe(1);
      expect(await buttons.textContent()).toBe("Unsubscribe");
      if (process.env.SCREENSHOT_DIR) {
        await page.screenshot({
          path: `${process.env.SCREENSHOT_DIR}/unsubscribe-${width}.png`,
          fullPage: true,
        });
      }
      await buttons.click();
      await page.getByRole("heading", { name: "You are unsubscribed" }).waitFor();
      await context.close();
    },
  );

  it("says a link whose signature does not match is not valid, and offers no button", async () => {
    const address = new URL(await oneClickAddress("forger@example.com"));
    address.searchParams.set("sig", "forged");
    const context = await site.browser.newContext();
    const page = await context.newPage();
    await page.goto(address.toString());
    await page.getByRole("heading", { name: "This link is not valid" }).waitFor();
    expect(await page.getByRole("main").getByRole("button").count()).toBe(0);
    await context.close();
  });
});
