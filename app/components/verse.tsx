/**
 * A line of verse. The spaces the poet typed at its start stay its indentation
 * (docs/product/reading.md, Stanza viewer), kept as typed in a box of their own; a line too long
 * for the screen wraps with its later rows hung 2em further in than its first, so a reader sees
 * one line continue.
 * The indentation takes at most half the width, so the words always have room.
 */
export function VerseLine({ line }: { line: string }) {
  const words = line.trimStart();
  const indentation = line.slice(0, line.length - words.length);
  return (
    <span className="flex">
      {indentation && (
        <span className="max-w-[50%] shrink-0 overflow-hidden whitespace-pre">{indentation}</span>
      )}
      <span className="min-w-0 pl-[2em] -indent-[2em] wrap-break-word">{words}</span>
    </span>
  );
}

/** A stanza's lines, each a VerseLine: the one way verse is set wherever it is shown. */
export function VerseLines({ lines }: { lines: string[] }) {
  return lines.map((line, lineNumber) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional text.
    <VerseLine key={lineNumber} line={line} />
  ));
}

/**
 * Text written with a line per row and a blank line between stanzas (guest poems, book pages),
 * set one stanza under another with the same gap between each: 1em, at any text size. A second
 * blank line is a spacer the poet put there (a guest voice's empty paragraph): one more gap.
 */
export function Verse({ text, className }: { text: string; className?: string }) {
  const stanzas = text
    .replace(/^\s*\n|\n\s*$/g, "")
    .split(/\n[^\S\n]*\n/)
    .map((stanza) => stanza.split("\n").map((line) => line.trimEnd()));
  return (
    <div className={`flex flex-col gap-[1em] ${className ?? ""}`}>
      {stanzas.map((stanza, position) =>
        stanza.every((line) => line === "") ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: stanzas are positional.
          <div key={position} aria-hidden="true" data-testid="verse-spacer" />
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: stanzas are positional.
          <p key={position}>
            <VerseLines lines={stanza} />
          </p>
        ),
      )}
    </div>
  );
}
