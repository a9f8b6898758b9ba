ALTER TABLE "site_settings" ADD COLUMN "books_page" jsonb;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "pinned_poem_id" integer;--> statement-breakpoint
ALTER TABLE "site_settings" ADD CONSTRAINT "site_settings_pinned_poem_id_poems_id_fk" FOREIGN KEY ("pinned_poem_id") REFERENCES "public"."poems"("id") ON DELETE set null ON UPDATE no action;