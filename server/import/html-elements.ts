/*
 * The elements a poem's HTML is read by (decision 051): the blocks that end a paragraph, and what
 * is dropped with its content, by element or by the platforms' classes.
 */

/** Elements that are a paragraph boundary: their start and end end a stanza's paragraph. */
export const BLOCKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "aside",
  "blockquote",
  "pre",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "hr",
  "address",
  "center",
  "details",
  "summary",
  "body",
  "html",
]);

/** Elements dropped with their content, and how the preview names what was dropped. */
export const DROPPED: Record<string, string> = {
  h1: "heading",
  h2: "heading",
  h3: "heading",
  h4: "heading",
  h5: "heading",
  h6: "heading",
  img: "image",
  picture: "image",
  figure: "figure",
  svg: "drawing",
  canvas: "drawing",
  iframe: "embed",
  embed: "embed",
  object: "embed",
  video: "video",
  audio: "audio player",
  script: "script",
  noscript: "script",
  style: "style sheet",
  form: "form",
  button: "button",
  input: "form field",
  select: "form field",
  textarea: "form field",
  table: "table",
  template: "template",
  head: "page head",
  title: "page head",
  math: "formula",
};

/** Elements with no content: they never get a closing tag to wait for. */
export const VOID = new Set([
  "img",
  "embed",
  "input",
  "br",
  "hr",
  "wbr",
  "source",
  "track",
  "area",
  "col",
]);

/**
 * Blocks the platforms wrap around things that are not the poem (Substack's subscribe widgets,
 * image containers and embeds; Ghost's cards; WordPress's buttons), by class.
 */
const DROPPED_CLASSES: [RegExp, string][] = [
  [/\bsubscription-widget/, "subscribe button"],
  [/\bbutton-wrapper\b|\bwp-block-buttons?\b/, "button"],
  [/\bcaptioned-image-container\b|\bimage-gallery-embed\b/, "image"],
  [
    /\bembedded-post|\byoutube-wrap\b|\btweet\b|\bspotify-wrap\b|\binstagram\b|\bpoll-embed\b/,
    "embed",
  ],
  [/\bwp-block-embed\b/, "embed"],
  [/\bfootnotes?\b/, "footnote"],
];

/** What a Ghost card is called in a note: kg-image-card is an image, kg-toggle-card a toggle card. */
const GHOST_CARD = /\bkg-(?!text-|width-)([a-z]+)-card\b/;
const GHOST_CARD_KINDS: Record<string, string> = {
  image: "image",
  gallery: "image gallery",
  embed: "embed",
  video: "video",
  audio: "audio player",
  button: "button",
  signup: "subscribe button",
};

/** What an element is named in the notes when its class drops it: a Ghost card by its kind. */
export function droppedByClass(className: string): string | undefined {
  const card = GHOST_CARD.exec(className)?.[1];
  if (card !== undefined) return GHOST_CARD_KINDS[card] ?? `${card} card`;
  return DROPPED_CLASSES.find(([pattern]) => pattern.test(className))?.[1];
}
