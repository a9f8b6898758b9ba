import { describe, expect, it } from "vitest";
import { digestClickToken, readDigestClickToken } from "./digest-links.ts";
import { groupOf, previewPlatformOf, sourceOf } from "./sources.ts";

/** Sources, link-preview platforms and digest link tokens (docs/decisions/049). */
describe("where a reader came from", () => {
  const site = "ember.example";
  it.each([
    ["https://www.google.com/search?q=poem", null, "search:google"],
    ["https://www.google.co.uk/", null, "search:google"],
    ["https://duckduckgo.com/", null, "search:duckduckgo"],
    ["https://www.bing.com/search?q=x", null, "search:bing"],
    ["https://mastodon.social/@poet/1", null, "fediverse:mastodon.social"],
    ["https://www.threads.net/@poet", null, "fediverse:threads.net"],
    ["https://blog.example.org/a/b?c=d", null, "site:blog.example.org"],
    [undefined, "digest", "email"],
    ["https://mastodon.social/", "Newsletter", "email"],
    [undefined, "google", "search:google"],
    [undefined, null, "direct"],
    ["not a url", null, "direct"],
  ])("%s with utm_source %s is %s", (referrer, utm, id) => {
    expect(sourceOf(referrer, utm, site)?.id).toBe(id);
    expect(groupOf(id)).toBe(sourceOf(referrer, utm, site)?.group);
  });

  it("counts a follower's server as the fediverse, not as another site", () => {
    const followers = new Set(["poets.example"]);
    expect(sourceOf("https://poets.example/@ada/1", null, site, followers)?.id).toBe(
      "fediverse:poets.example",
    );
    expect(sourceOf("https://poets.example/@ada/1", null, site)?.id).toBe("site:poets.example");
  });

  it("is no source when the reader moves between the site's own pages", () => {
    expect(sourceOf("https://ember.example/poetry", null, site)).toBeUndefined();
  });

  it("keeps no more of a utm_source than a host's characters", () => {
    expect(sourceOf(undefined, "<script>", site)?.id).toBe("direct");
  });
});

describe("link-preview platforms", () => {
  it.each([
    ["http.rb/5.1.1 (Mastodon/4.3.0; +https://mastodon.social/) Bot", "Mastodon"],
    ["Mozilla/5.0 (compatible; Bluesky Cardyb/1.1; +mailto:support@bsky.app)", "Bluesky"],
    ["WhatsApp/2.23.20.0", "WhatsApp"],
    ["Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "Slack"],
    ["Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", "Discord"],
    ["facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "Facebook"],
    ["Twitterbot/1.0", "X"],
    ["TelegramBot (like TwitterBot)", "Telegram"],
    [
      "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
      "LinkedIn",
    ],
  ])("%s is %s", (agent, platform) => {
    expect(previewPlatformOf(agent)).toBe(platform);
  });

  it("is no platform for a person's browser", () => {
    expect(
      previewPlatformOf(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36",
      ),
    ).toBeUndefined();
  });
});

describe("a digest link's token", () => {
  it("reads back its run and link, and nothing from an altered or foreign one", () => {
    const token = digestClickToken("secret", 12, 3);
    expect(readDigestClickToken("secret", token)).toEqual({ runId: 12, link: 3 });
    expect(readDigestClickToken("other", token)).toBeUndefined();
    expect(readDigestClickToken("secret", token.replace("12-3", "12-4"))).toBeUndefined();
    expect(readDigestClickToken("secret", `${token}x`)).toBeUndefined();
    expect(readDigestClickToken("secret", "")).toBeUndefined();
  });
});
