-- A backslash before a slash or a backslash now escapes it in a stanza (common/stanza.ts,
-- docs/decisions/062-a-line-that-holds-the-marker.md). Such a backslash in a stanza written
-- before this read as itself: it is doubled, so every stored line reads exactly as it did.
UPDATE "poems" SET "stanzas" = (
  SELECT jsonb_agg(regexp_replace(stanza, '\\(?=[\\/])', '\\\\', 'g') ORDER BY position)
  FROM jsonb_array_elements_text("stanzas") WITH ORDINALITY AS lines(stanza, position)
) WHERE strpos("stanzas"::text, chr(92)) > 0;
--> statement-breakpoint
UPDATE "poem_versions" SET "stanzas" = (
  SELECT jsonb_agg(regexp_replace(stanza, '\\(?=[\\/])', '\\\\', 'g') ORDER BY position)
  FROM jsonb_array_elements_text("stanzas") WITH ORDINALITY AS lines(stanza, position)
) WHERE strpos("stanzas"::text, chr(92)) > 0;
