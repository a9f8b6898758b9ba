ALTER TABLE "chapbooks" ADD COLUMN "cover_url" text;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "chapbook_face" text;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "stanza_notes_carry_reading" boolean DEFAULT false NOT NULL;