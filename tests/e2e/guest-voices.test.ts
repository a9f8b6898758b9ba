import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUpBrowserSite } from "../helpers/browser-site.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";

let smtp: SmtpCapture;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(() => smtp?.close());
const site = setUpBrowserSite(() => ({ SMTP_URL: smtp.url }));

describe("a submission published as a guest voice", () => {
  it("is published from the inbox, emailed about, and read on /guest-voices at 375 px", async () => {
    const sent = await fetch(`${site.server.url}/api/guest-submission`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: site.server.url },
      body: JSON.stringify({
        name: "Juno Vale",
        email: "juno@example.com",
        handle: "@juno",
        socialUrl: "https://example.com/juno",
        bio: "Juno keeps a lighthouse.",
        poemTitle: "Lamp Room",
        poemText: "The lamp turns\nits one slow thought\n\nand the sea answers",
      }),
    });
    expect(sent.status).toBe(201);

    const admin = await site.signedIn("poet@example.com", { admin: true });
    const inbox = await site.open(admin, "/admin/submissions");
    const submission = inbox.getByRole("article", { name: "Lamp Room" });
    await submission.getByRole("button", { name: "Publish as guest voice" }).click();
    await inbox.getByText("Guest voice published").waitFor();
    const mail = await smtp.waitFor("juno@example.com");
    expect(mail.parsed.text).toContain(`${site.server.url}/guest-voices/juno-vale`);

    const voices = await site.open(admin, "/admin/guest-voices");
    await voices.getByRole("heading", { name: "Juno Vale" }).waitFor();
    await voices.screenshot({ path: "/tmp/gv2-shots/admin-guest-voices-1280.png", fullPage: true });
    await voices.setViewportSize({ width: 375, height: 800 });
    await voices.screenshot({ path: "/tmp/gv2-shots/admin-guest-voices-375.png", fullPage: true });
    await voices.setViewportSize({ width: 1280, height: 900 });
    await voices.getByRole("button", { name: "Move Juno Vale up" }).click();
    await voices.getByText("Juno Vale moved up").waitFor();
    await voices
      .getByRole("article", { name: "Juno Vale" })
      .getByRole("button", { name: "Edit" })
      .click();
    const form = voices.getByRole("form", { name: "Edit Juno Vale" });
    expect(await form.getByLabel("Poem text").inputValue()).toBe(
      "The lamp turns\nits one slow thought\n\nand the sea answers",
    );
    await form
      .getByLabel("Poem text")
      .fill("The lamp turns\nits one slow thought\n\n~\n\nand the sea answers");
    await voices.screenshot({
      path: "/tmp/gv2-shots/admin-guest-voice-form-1280.png",
      fullPage: true,
    });
    await form.getByRole("button", { name: "Save" }).click();
    await voices.getByText("Guest voice updated successfully").waitFor();
    await admin.close();

    const reader = await site.browser.newContext({ viewport: { width: 375, height: 800 } });
    const list = await site.open(reader, "/guest-voices");
    const card = list.getByRole("link", { name: /Juno Vale/ });
    await card.waitFor();
    await list.screenshot({ path: "/tmp/gv2-shots/guest-voices-375.png", fullPage: true });
    await card.click();
    await list.getByRole("heading", { name: "Lamp Room" }).waitFor();
    await list.getByText("and the sea answers").waitFor();
    const width = await list.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await list.screenshot({ path: "/tmp/gv2-shots/guest-voice-375.png", fullPage: true });
    await reader.close();
  });
});
