CREATE TABLE "site_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"site_title" text,
	"tagline" text,
	"poet_name" text,
	"poet_bio" text,
	"portrait_url" text,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"filter_tag_ids" jsonb,
	"home_theme_tag_ids" jsonb,
	"book_slot_titles" jsonb,
	"copyright_from" integer,
	"hold_whispers" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_settings_one_row" CHECK ("site_settings"."id" = 1)
);
