import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reduceHtml } from "./html-stanzas.ts";
import { HTML_MAX_DEPTH } from "./limits.ts";

// What becomes a stanza and a line (docs/decisions/051-parsing-foreign-files-safely.md).
describe("reduceHtml", () => {
  it("makes each paragraph a stanza and each <br> a line, entities decoded", () => {
    const { stanzas, notes } = reduceHtml(
      "<p>The kettle sings,<br>a thin song &amp; a small one.</p>\n<p>I lie<br/>and listen.</p>",
    );
    expect(stanzas).toEqual([
      "The kettle sings, / a thin song & a small one.",
      "I lie / and listen.",
    ]);
    expect(notes).toEqual([]);
  });

  it("keeps leading &nbsp; and wide spaces as indentation, and drops the spaces a browser collapses", () => {
    const { stanzas } = reduceHtml(
      "<p>first<br>\n      &nbsp;&nbsp;&nbsp;&nbsp;second<br>\u3000third  word   </p>",
    );
    expect(stanzas).toEqual(["first /     second /  third word"]);
  });

  it("splits a stanza where a paragraph has a blank line (two <br>)", () => {
    expect(reduceHtml("<p>one<br>two<br><br>three</p>").stanzas).toEqual(["one / two", "three"]);
  });

  it("reads line-per-paragraph poems, with empty paragraphs between stanzas, as stanzas of lines", () => {
    const html =
      "<p>The river kept a boot,</p><p>a ring,</p><p></p><p>&nbsp;</p><p>and gave back</p><p>only shouting.</p>";
    expect(reduceHtml(html).stanzas).toEqual([
      "The river kept a boot, / a ring,",
      "and gave back / only shouting.",
    ]);
  });

  it("keeps one stanza per paragraph when paragraphs hold several lines, whatever empty paragraphs stand between", () => {
    expect(reduceHtml("<p>a<br>b</p><p></p><p>c</p><p>d<br>e</p>").stanzas).toEqual([
      "a / b",
      "c",
      "d / e",
    ]);
  });

  it("keeps a <pre> verse block's own spaces and newlines", () => {
    const { stanzas } = reduceHtml(
      '<pre class="wp-block-verse">and leaves us\n    the long argument\n\n\tof the sand.</pre>',
    );
    expect(stanzas).toEqual(["and leaves us /     the long argument", "    of the sand."]);
  });

  it("reads the classic editor's newlines as line breaks and blank lines as stanza breaks", () => {
    const { stanzas } = reduceHtml(
      "The ferry leaves,\nits lights\n\n&nbsp;&nbsp;a sentence",
      "breaks",
    );
    expect(stanzas).toEqual(["The ferry leaves, / its lights", "  a sentence"]);
  });

  it("drops headings, images, figures, embeds and scripts, naming each in a note", () => {
    const { stanzas, notes } = reduceHtml(
      '<h2>Part <em>one</em></h2><p>a line<img src="x.jpg" alt="x"></p><figure><img src="y.jpg"><figcaption>caption words</figcaption></figure>' +
        '<iframe src="https://www.youtube.com/embed/x">fallback</iframe><script>alert("x")</script><style>p{}</style>' +
        '<figure class="wp-block-embed"><div>https://youtube.com/x</div></figure><p>last</p>',
    );
    expect(stanzas).toEqual(["a line", "last"]);
    expect(notes).toEqual([
      "Dropped the heading “Part one”",
      "Dropped 2 images",
      "Dropped 2 embeds",
      "Dropped a script",
      "Dropped a style sheet",
      "Dropped the caption “caption words”",
    ]);
  });

  it("drops the platforms' widgets: Substack's subscribe box and buttons, Ghost's cards", () => {
    const { stanzas, notes } = reduceHtml(
      '<p>poem</p><div class="subscription-widget-wrap-editor"><p class="cta-caption">Subscribe for free</p><form><input type="email"></form></div>' +
        '<p class="button-wrapper"><a class="button primary" href="#"><span>Share</span></a></p>' +
        '<div class="kg-card kg-callout-card"><div class="kg-callout-text">Note</div></div>' +
        '<figure class="kg-card kg-image-card"><img src="z.jpg"></figure>',
    );
    expect(stanzas).toEqual(["poem"]);
    expect(notes).toEqual([
      "Dropped a subscribe button",
      "Dropped a button",
      "Dropped a callout card",
      "Dropped an image",
    ]);
  });

  it("keeps the text of links and inline formatting, without the markup", () => {
    expect(
      reduceHtml(
        '<p><a href="javascript:alert(1)" onclick="x()">the <strong>sea</strong></a> <em>again</em></p>',
      ).stanzas,
    ).toEqual(["the sea again"]);
  });

  it("turns a decoded '<' that could open a tag into '‹', and leaves '<3' and 'a < b' alone", () => {
    expect(
      reduceHtml("<p>&lt;script&gt;alert(1)&lt;/script&gt; a &lt; b &lt;3</p>").stanzas,
    ).toEqual(["‹script>alert(1)‹/script> a < b <3"]);
  });

  it(`stops at HTML nested more than ${HTML_MAX_DEPTH} deep, quickly, saying why`, () => {
    const started = performance.now();
    const deep = reduceHtml(`${"<div>".repeat(200_000)}x`);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(deep).toEqual({
      stanzas: [],
      notes: [],
      unreadable: "Its HTML is nested more than 500 elements deep",
    });
    expect(reduceHtml(`${"<div>".repeat(HTML_MAX_DEPTH - 1)}x`).stanzas).toEqual(["x"]);
  });

  it("lets no tag and no '<script' survive, whatever the HTML (property)", () => {
    const tagName = fc.constantFrom(
      "p",
      "br",
      "div",
      "script",
      "style",
      "iframe",
      "img",
      "h2",
      "em",
      "pre",
      "figure",
      "svg",
      "x-y",
      "textarea",
      "title",
    );
    const piece = fc.oneof(
      tagName.map((name) => `<${name}>`),
      tagName.map((name) => `</${name}>`),
      tagName.map((name) => `<${name} src="x" onerror="alert(1)">`),
      fc.constantFrom(
        "<",
        ">",
        "&lt;",
        "&gt;",
        "&#60;",
        "&#x3C;",
        "&nbsp;",
        "<!--",
        "-->",
        "<![CDATA[",
        "]]>",
        "\n",
        "  ",
        "<script",
        "/",
      ),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }),
        fc.constantFrom("html", "breaks", "pre" as const),
        (pieces, mode) => {
          const { stanzas } = reduceHtml(pieces.join(""), mode as "html");
          for (const stanza of stanzas) {
            expect(stanza.toLowerCase()).not.toContain("<script");
            expect(stanza).not.toMatch(/<[a-zA-Z/!?]/);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("never lets a paragraph that held only an image join the stanzas around it", () => {
    // Ghost 1.x: one line a paragraph, an image in a paragraph of its own, no empty paragraphs.
    const { stanzas, notes } = reduceHtml(
      "<p>one</p><p>two</p><p><img src=a.jpg></p><p>three</p><figure><img src=b.jpg></figure><p>four</p>",
    );
    expect(stanzas).toEqual(["one", "two", "three", "four"]);
    expect(notes).toEqual(["Dropped 2 images"]);
    // Line-per-paragraph poems: the image still stands between two stanzas.
    const grouped = reduceHtml("<p>a</p><p>b</p><p></p><p>c</p><p><img src=x></p><p>d</p>");
    expect(grouped.stanzas).toEqual(["a / b", "c", "d"]);
    expect(grouped.notes).toContain(
      "Each line was its own paragraph: the empty paragraphs between them were read as stanza breaks",
    );
  });

  it("says when a blank line inside a paragraph split it into stanzas", () => {
    const { stanzas, notes } = reduceHtml("<p>one<br><br>two</p><p>three</p>");
    expect(stanzas).toEqual(["one", "two", "three"]);
    expect(notes).toEqual(["A paragraph with a blank line in it became two stanzas"]);
  });
});
