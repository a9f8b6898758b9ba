/**
 * Export files in each platform's published format, of any size: N poems and M subscribers as a
 * Substack zip, a Ghost JSON export and members CSV, a WordPress WXR, and a zip of plain .md/.txt
 * files (docs/product/import.md). The import tests and `npm run bench:import` read them through
 * the same parsers as a poet's real export.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { strToU8, zipSync } from "fflate";

export interface ExportSize {
  poems: number;
  subscribers: number;
}

const WORDS = [
  "salt",
  "lamp",
  "harbour",
  "winter",
  "bread",
  "river",
  "window",
  "ash",
  "orchard",
  "gull",
  "kettle",
  "frost",
  "rain",
  "gate",
  "ember",
  "field",
];

const word = (n: number) => WORDS[n % WORDS.length] ?? "word";

/** Poem n's stanzas as lines: three stanzas of three or four lines, the last line indented. */
export function generatedStanzas(n: number): string[][] {
  return [0, 1, 2].map((stanza) =>
    Array.from({ length: 3 + ((n + stanza) % 2) }, (_, line) => {
      const text = `the ${word(n + stanza + line)} and the ${word(n * 3 + line)} of ${word(n + line * 7)}`;
      return line === 2 ? `    ${text}` : text;
    }),
  );
}

export const generatedTitle = (n: number) => `Poem ${n}: ${word(n)} ${word(n + 5)}`;
export const generatedSlug = (n: number) => `poem-${n}-${word(n)}`;
export const generatedEmail = (n: number) => `reader${n}@example.com`;
/** Every tenth reader of a generated list has turned email off (or unsubscribed). */
export const generatedReceivesEmail = (n: number) => n % 10 !== 0;

/** An hour apart from 2020 on: 50,000 of them still end in the past (2025). */
const date = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * 3_600_000);
const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const csvField = (text: string) => (/[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** A poem's HTML as the platforms' editors write it: a <p> per stanza, <br> between lines, &nbsp; indents. */
function poemHtml(n: number): string {
  return generatedStanzas(n)
    .map(
      (lines) =>
        `<p>${lines
          .map((line) =>
            escapeHtml(line).replace(/^ +/, (spaces) => "&nbsp;".repeat(spaces.length)),
          )
          .join("<br>")}</p>`,
    )
    .join("");
}

/** A Substack export zip: posts.csv, posts/{post_id}.html, email_list.{publication}.csv. */
export function substackExport(size: ExportSize): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const posts = [
    "post_id,post_date,is_published,email_sent_at,inbox_sent_at,type,audience,title,subtitle,podcast_url",
  ];
  for (let n = 1; n <= size.poems; n += 1) {
    const postId = `${100_000_000 + n}.${generatedSlug(n)}`;
    const at = date(n).toISOString();
    posts.push(
      [
        postId,
        at,
        "true",
        at,
        at,
        "newsletter",
        "everyone",
        csvField(generatedTitle(n)),
        "",
        "",
      ].join(","),
    );
    files[`posts/${postId}.html`] = strToU8(poemHtml(n));
  }
  files["posts.csv"] = strToU8(`${posts.join("\n")}\n`);
  const list = ["email,active_subscription,expiry,plan,email_disabled,created_at,first_payment_at"];
  for (let n = 1; n <= size.subscribers; n += 1) {
    list.push(
      [
        generatedEmail(n),
        "false",
        "",
        "",
        generatedReceivesEmail(n) ? "false" : "true",
        date(n).toISOString(),
        "",
      ].join(","),
    );
  }
  files["email_list.generated.csv"] = strToU8(`${list.join("\n")}\n`);
  return zipSync(files);
}

/** A Ghost 5 JSON export: db[0].data with posts (html), tags and posts_tags. */
export function ghostExport(size: ExportSize): string {
  const posts = Array.from({ length: size.poems }, (_, index) => {
    const n = index + 1;
    return {
      id: `post${String(n).padStart(20, "0")}`,
      uuid: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
      title: generatedTitle(n),
      slug: generatedSlug(n),
      mobiledoc: null,
      lexical: null,
      html: poemHtml(n),
      feature_image: null,
      featured: false,
      type: "post",
      status: "published",
      visibility: "public",
      created_at: date(n).toISOString(),
      updated_at: date(n).toISOString(),
      published_at: date(n).toISOString(),
    };
  });
  const tags = [
    { id: "tag0000000000000000001", name: "Generated", slug: "generated", visibility: "public" },
  ];
  const postsTags = posts.map((post, index) => ({
    id: `pt${String(index).padStart(20, "0")}`,
    post_id: post.id,
    tag_id: "tag0000000000000000001",
    sort_order: 0,
  }));
  return JSON.stringify({
    db: [
      {
        meta: { exported_on: Date.UTC(2026, 0, 1), version: "5.74.3" },
        data: { posts, tags, posts_tags: postsTags },
      },
    ],
  });
}

/** Ghost's members CSV. */
export function ghostMembers(size: ExportSize): string {
  const rows = [
    "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers",
  ];
  for (let n = 1; n <= size.subscribers; n += 1) {
    rows.push(
      [
        `member${n}`,
        generatedEmail(n),
        `Reader ${n}`,
        "",
        String(generatedReceivesEmail(n)),
        "false",
        "",
        date(n).toISOString(),
        "",
        "",
        "",
      ].join(","),
    );
  }
  return `${rows.join("\n")}\n`;
}

/** A WordPress 6 WXR 1.2 export: block-editor posts in CDATA, tags as category domain="post_tag". */
export function wordpressExport(size: ExportSize): string {
  const items: string[] = [];
  for (let n = 1; n <= size.poems; n += 1) {
    const at = date(n).toISOString().replace("T", " ").slice(0, 19);
    const content = generatedStanzas(n)
      .map(
        (_, stanza) =>
          `<!-- wp:paragraph -->\n${poemHtml(n).split("</p>")[stanza]}</p>\n<!-- /wp:paragraph -->`,
      )
      .join("\n\n");
    items.push(`	<item>
		<title><![CDATA[${generatedTitle(n)}]]></title>
		<pubDate>${date(n).toUTCString()}</pubDate>
		<dc:creator><![CDATA[poet]]></dc:creator>
		<guid isPermaLink="false">https://poet.example/?p=${n}</guid>
		<content:encoded><![CDATA[${content}]]></content:encoded>
		<wp:post_id>${n}</wp:post_id>
		<wp:post_date><![CDATA[${at}]]></wp:post_date>
		<wp:post_date_gmt><![CDATA[${at}]]></wp:post_date_gmt>
		<wp:post_name><![CDATA[${generatedSlug(n)}]]></wp:post_name>
		<wp:status><![CDATA[publish]]></wp:status>
		<wp:post_type><![CDATA[post]]></wp:post_type>
		<category domain="post_tag" nicename="generated"><![CDATA[generated]]></category>
	</item>`);
  }
  return `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0"
	xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"
	xmlns:content="http://purl.org/rss/1.0/modules/content/"
	xmlns:wfw="http://wellformedweb.org/CommentAPI/"
	xmlns:dc="http://purl.org/dc/elements/1.1/"
	xmlns:wp="http://wordpress.org/export/1.2/"
>
<channel>
	<title>Generated</title>
	<link>https://poet.example</link>
	<wp:wxr_version>1.2</wp:wxr_version>
	<wp:base_site_url>https://poet.example</wp:base_site_url>
${items.join("\n")}
</channel>
</rss>
`;
}

/** A zip of .md poems with YAML front matter (title, date, tags, slug). */
export function plainFilesZip(size: ExportSize): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (let n = 1; n <= size.poems; n += 1) {
    const front = `---\ntitle: "${generatedTitle(n)}"\ndate: ${date(n).toISOString()}\ntags: [generated]\nslug: ${generatedSlug(n)}\n---\n`;
    const body = generatedStanzas(n)
      .map((lines) => lines.join("\n"))
      .join("\n\n");
    files[`poems/${generatedSlug(n)}.md`] = strToU8(`${front}${body}\n`);
  }
  return zipSync(files);
}

/**
 * Every format written into a folder (for the CLI and `npm run bench:import`): the paths of the
 * Substack zip, the Ghost export and members CSV, the WordPress WXR and the zip of plain files.
 */
export async function writeImportFiles(directory: string, size: ExportSize) {
  await mkdir(directory, { recursive: true });
  const files = {
    substack: ["substack-export.zip", substackExport(size)],
    ghost: ["ghost-export.json", strToU8(ghostExport(size))],
    ghostMembers: ["ghost-members.csv", strToU8(ghostMembers(size))],
    wordpress: ["wordpress.WordPress.xml", strToU8(wordpressExport(size))],
    files: ["poems.zip", plainFilesZip(size)],
  } as const;
  const paths: Record<string, string> = {};
  for (const [key, [name, bytes]] of Object.entries(files)) {
    paths[key] = path.join(directory, name);
    await writeFile(paths[key], bytes);
  }
  return paths as Record<keyof typeof files, string>;
}
