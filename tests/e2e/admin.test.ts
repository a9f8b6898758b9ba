import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { hydrated } from "../helpers/browser.ts";
import { setUpBrowserSite } from "../helpers/browser-site.ts";

const site = setUpBrowserSite();
let admin: BrowserContext;
let page: Page;
let coverFile: string;

/** What an anonymous reader gets for a page: the cached copy once it has been served before. */
async function anonymousHtml(pathname: string) {
  return (await fetch(`${site.server.url}${pathname}`)).text();
}

beforeAll(async () => {
  admin = await site.signedIn("poet@example.com", { admin: true });
  page = await site.open(admin, "/admin");
  coverFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ev-cover-")), "cover.jpg");
  await sharp({ create: { width: 800, height: 1000, channels: 3, background: "#9f4314" } })
    .jpeg()
    .toFile(coverFile);
});

describe("content management as the poet", () => {
  it("adds a poem with an uploaded cover; readers see it at once, cached pages included", async () => {
    // Warm the page cache first, as readers would have.
    await anonymousHtml("/poetry");
    await anonymousHtml("/poetry");
    expect(await anonymousHtml("/poetry")).not.toContain("Lanterns on the Quay");

    await page.getByRole("heading", { name: "Content Management" }).waitFor();
    await page.getByRole("button", { name: "Add New Poem" }).click();
    const form = page.getByRole("form", { name: "New Poem" });
    await form.getByLabel("Title").fill("Lanterns on the Quay");
    expect(await form.getByLabel("Slug").inputValue()).toBe("lanterns-on-the-quay");
    await form
      .getByLabel("Stanzas")
      .fill("We hung our lanterns\nalong the quay\n\n\nand waited for the boats");
    const chooser = page.waitForEvent("filechooser");
    await form.getByRole("button", { name: "Upload image" }).click();
    await (await chooser).setFiles(coverFile);
    await page.getByText("Image uploaded successfully").waitFor();
    expect(await form.getByLabel("Cover image").inputValue()).toMatch(
      /^\/objects\/images\/[\w-]+$/,
    );
    await form.getByRole("img", { name: "Cover preview" }).waitFor();
    await form.getByRole("checkbox").first().check();
    await form.getByRole("button", { name: "Publish now" }).click();
    await page.getByText("Poem created successfully").waitFor();
    await form.waitFor({ state: "detached" });
    await page.getByText("2 stanzas").first().waitFor();
    await page.screenshot({ path: "test-results/admin-1280.png", fullPage: true });

    const listing = await anonymousHtml("/poetry");
    expect(listing).toContain("Lanterns on the Quay");
    const poemPage = await anonymousHtml("/poetry/lanterns-on-the-quay");
    expect(poemPage).toContain("We hung our lanterns");
    expect(poemPage).toMatch(/srcSet="\/objects\/images\/[\w-]+-480\.webp 480w/);
  });

  it("shows the spec's messages for a poem that is not ready, and keeps the form open", async () => {
    await page.getByRole("button", { name: "Add New Poem" }).click();
    const form = page.getByRole("form", { name: "New Poem" });
    await form.getByRole("button", { name: "Publish now" }).click();
    await page.getByText("Failed to create poem").waitFor();
    await form.getByText("Title is required").waitFor();
    await form.getByRole("button", { name: "Cancel" }).click();
    await form.waitFor({ state: "detached" });
  });

  it("edits tomorrow's ember from the week view, with the quick date buttons", async () => {
    await page.getByRole("tab", { name: "Embers" }).click();
    const tomorrow = page.getByRole("listitem").filter({ hasText: "Tomorrow" });
    await tomorrow.getByRole("button", { name: /^Edit ember for/ }).click();
    const form = page.getByRole("form", { name: "Edit Ember" });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: "test-results/admin-ember-375.png", fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    const date = form.getByLabel("Date");
    const scheduled = await date.inputValue();
    await form.getByRole("button", { name: "Next Week" }).click();
    expect(await date.inputValue()).not.toBe(scheduled);
    await form.getByRole("button", { name: "Tomorrow" }).click();
    expect(await date.inputValue()).toBe(scheduled);
    await form.getByLabel("Text").fill("The lamp is lit before the dark arrives.");
    await form.getByRole("button", { name: "Save" }).click();
    await page.getByText("Ember updated successfully").waitFor();
    await tomorrow.getByText("The lamp is lit before the dark arrives.").waitFor();
  });

  it("renames a tag and adds and deletes a book", async () => {
    await anonymousHtml("/api/books");
    await page.getByRole("tab", { name: "Tags" }).click();
    await page.getByRole("button", { name: "Add New Tag" }).click();
    await page.getByRole("form", { name: "New Tag" }).getByLabel("Name").fill("Harbours");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Tag created successfully").waitFor();
    await page.getByRole("button", { name: "Edit Harbours" }).click();
    await page.getByRole("form", { name: "Edit Tag" }).getByLabel("Name").fill("Harbour Towns");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Harbour Towns").waitFor();

    await page.getByRole("tab", { name: "Books" }).click();
    await page.getByRole("button", { name: "Add New Book" }).click();
    const form = page.getByRole("form", { name: "New Book" });
    await form.getByLabel("Title").fill("Quay Songs");
    await form.getByLabel("Blurb").fill("Short songs for long tides.");
    await form.getByLabel("Cover URL").fill("https://example.com/quay.jpg");
    await form.getByLabel("Buy URL").fill("https://example.com/buy/quay");
    await form.getByRole("button", { name: "Add Page" }).click();
    await form.getByLabel("Page 1 title").fill("First");
    await form.getByLabel("Page 1 content").fill("The first page.");
    await form.getByRole("button", { name: "Save" }).click();
    await page.getByText("Book created successfully").waitFor();
    // Readers' book list (the /books page shows its five fixed slots; the API lists every book).
    expect(await anonymousHtml("/api/books")).toContain("Quay Songs");
    await page.getByRole("button", { name: "Delete Quay Songs" }).click();
    await page.getByText("Book deleted successfully").waitFor();
    expect(await anonymousHtml("/api/books")).not.toContain("Quay Songs");
  });

  it("hides a whisper from readers and approves it again", async () => {
    const reader = await site.browser.newContext();
    const link = await site.server.cli("login-link", "reader@example.com");
    const readerPage = await reader.newPage();
    await readerPage.goto(link.stdout.trim());
    const posted = await readerPage.evaluate(async (origin) => {
      const response = await fetch(`${origin}/api/poems/lanterns-on-the-quay/whispers`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ stanzaIndex: 0, body: "The boats always come back." }),
      });
      return response.status;
    }, site.server.url);
    expect(posted).toBe(201);
    const readerWhispers = async () =>
      (await (
        await fetch(`${site.server.url}/api/poems/lanterns-on-the-quay/whispers/0`)
      ).json()) as {
        text: string;
      }[];

    await page.getByRole("tab", { name: "Whispers" }).click();
    const whisper = page.getByRole("listitem").filter({ hasText: "The boats always come back." });
    await whisper.getByRole("button", { name: "Hide" }).click();
    await page.getByText("The reflection is no longer visible to users.").waitFor();
    expect(await readerWhispers()).toEqual([]);
    await page.getByRole("radio", { name: "Hidden (1)" }).check({ force: true });
    await whisper.getByRole("button", { name: "Approve" }).click();
    await page.getByText("The reflection is now visible to all users.").waitFor();
    expect((await readerWhispers()).map((item) => item.text)).toEqual([
      "The boats always come back.",
    ]);
    await reader.close();
  });

  it("reviews guest submissions, showing what was sent as plain text", async () => {
    const sent = await fetch(`${site.server.url}/api/guest-submission`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: site.server.url },
      body: JSON.stringify({
        name: "Ada",
        email: "ada@example.com",
        poemTitle: "Night <script>alert(1)</script>",
        poemText: "first line\nsecond line",
      }),
    });
    expect(sent.status).toBe(201);
    let alerted = false;
    page.on("dialog", (dialog) => {
      if (dialog.type() === "alert") alerted = true;
      void dialog.accept();
    });
    await page.getByRole("link", { name: "Guest Submissions" }).click();
    const submission = page.getByRole("article", { name: "Night <script>alert(1)</script>" });
    await submission.getByText("first line second line").waitFor();
    await submission.getByRole("button", { name: "Mark reviewed" }).click();
    await submission.getByText("Reviewed").waitFor();
    await submission.getByRole("button", { name: "Delete" }).click();
    await page.getByText("Submission deleted successfully").waitFor();
    await page.getByText("No submissions yet.").waitFor();
    expect(alerted).toBe(false);
    await page.goto(`${site.server.url}/admin`);
    await hydrated(page);
  });

  it("deletes the poem; its page is gone for readers at once", async () => {
    await page.getByRole("tab", { name: "Poems" }).click();
    await page.getByRole("button", { name: "Delete Lanterns on the Quay" }).click();
    await page.getByText("Poem deleted successfully").waitFor();
    expect((await fetch(`${site.server.url}/poetry/lanterns-on-the-quay`)).status).toBe(404);
    expect(await anonymousHtml("/poetry")).not.toContain("Lanterns on the Quay");
  });
});
