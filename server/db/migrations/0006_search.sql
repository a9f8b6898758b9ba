-- Search (docs/decisions/020-search.md). The functions are written by hand: Drizzle cannot
-- express them. Every name inside is schema-qualified, because index builds and maintenance run
-- with a search_path of pg_catalog only.
--
-- Text as search sees it: accents dropped (decomposed, then combining marks removed), so "cafe"
-- finds "café". The unaccent extension would do it too, but PGlite does not load it by default.
CREATE FUNCTION public.search_fold(input text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN regexp_replace(normalize(input, NFD), '[\u0300-\u036f]', '', 'g');--> statement-breakpoint
-- One text-search configuration for every document and every query: 'english' stems, so
-- "burning" finds "burn"; case folds in to_tsvector itself.
CREATE FUNCTION public.search_document(input text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN to_tsvector('english'::regconfig, public.search_fold(input));--> statement-breakpoint
-- A reader's words as a query: websearch_to_tsquery reads any text (quotes, "or", "-word") and
-- never fails on operators, so nothing the reader types becomes query syntax by concatenation.
CREATE FUNCTION public.search_query(input text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN websearch_to_tsquery('english'::regconfig, public.search_fold(input));--> statement-breakpoint
-- A poem: its title and every stanza.
CREATE FUNCTION public.poem_search_document(title text, stanzas jsonb) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN public.search_document(title) || public.search_document(coalesce(
    (SELECT string_agg(stanza, ' / ') FROM jsonb_array_elements_text(stanzas) AS stanza), ''));--> statement-breakpoint
ALTER TABLE "embers" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (public.search_document(text)) STORED;--> statement-breakpoint
ALTER TABLE "poems" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (public.poem_search_document(title, stanzas)) STORED;--> statement-breakpoint
ALTER TABLE "poems" ADD COLUMN "title_search_vector" "tsvector" GENERATED ALWAYS AS (public.search_document(title)) STORED;--> statement-breakpoint
CREATE INDEX "embers_search_vector_idx" ON "embers" USING gin ("search_vector") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "poems_search_vector_idx" ON "poems" USING gin ("search_vector") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "poems_title_search_vector_idx" ON "poems" USING gin ("title_search_vector") WITH (fastupdate=false);