import { describe, expect, it } from "vitest";
import { visibleLength } from "../../common/text.ts";
import { remoteLabel, remoteLink, replyText, shownReplyText } from "./reply-text.ts";

const SITE = "verse.example";

/** A reply as Mastodon writes it: a mention of the site's actor, then the words. */
const mastodonReply = (words: string) =>
  `<p><span class="h-card" translate="no"><a href="https://verse.example/@poet" class="u-url mention">@<span>poet</span></a></span> ${words}</p>`;

describe("a fediverse reply's text (docs/decisions/046-fediverse-voices.md)", () => {
  it("leaves out the leading mention of the site and keeps line breaks and paragraphs", () => {
    expect(replyText(mastodonReply("Lovely<br>second line</p><p>A new paragraph."), SITE)).toBe(
      "Lovely\nsecond line\n\nA new paragraph.",
    );
    expect(replyText("<p>@poet@verse.example thank you</p>", SITE)).toBe("thank you");
  });

  it("keeps a mention of someone else, and one of the site after the first words", () => {
    const other = `<p><a href="https://elsewhere.example/@ada" class="mention">@ada</a> and <a href="https://verse.example/@poet" class="mention">@poet</a> yes</p>`;
    expect(replyText(other, SITE)).toBe("@ada and @poet yes");
  });

  it("decodes entities, drops every tag and the text of scripts", () => {
    expect(
      replyText(
        `<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; <b>bold</b> <img src=x onerror=alert(2)></p><script>alert(3)</script><style>p{}</style>`,
        SITE,
      ),
    ).toBe("<script>alert(1)</script> & bold");
  });

  it("keeps no control or bidirectional characters, and nothing of a reply that is only markup", () => {
    expect(replyText("<p>a\u0000b\u202Ec\u0007d</p>", SITE)).toBe("abcd");
    expect(replyText(mastodonReply(""), SITE)).toBe("");
    expect(replyText("<p><br></p>", SITE)).toBe("");
  });

  it("shows a long reply cut to 280 characters with an ellipsis, a short one whole", () => {
    expect(shownReplyText("Short.")).toEqual({ text: "Short.", isCut: false });
    const long = "word ".repeat(100).trim();
    const shown = shownReplyText(long);
    expect(shown.isCut).toBe(true);
    expect(shown.text.endsWith("…")).toBe(true);
    expect(visibleLength(shown.text)).toBeLessThanOrEqual(280);
    const emoji = "👍🏽".repeat(281);
    expect(visibleLength(shownReplyText(emoji).text)).toBe(280);
  });

  it("keeps only http(s) links and plain labels from the remote actor", () => {
    expect(remoteLink("javascript:alert(1)")).toBeNull();
    expect(remoteLink("data:text/html,hi")).toBeNull();
    expect(remoteLink("https://elsewhere.example/@ada")).toBe("https://elsewhere.example/@ada");
    expect(remoteLabel("  Ada\u202E  Lovelace\n", 100)).toBe("Ada Lovelace");
    expect(remoteLabel("   ", 100)).toBeNull();
    expect(remoteLabel("x".repeat(150), 100)).toHaveLength(100);
  });
});
