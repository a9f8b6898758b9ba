ALTER TABLE "import_items" ADD COLUMN "site" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "import_items" ADD COLUMN "fingerprint" text;--> statement-breakpoint
ALTER TABLE "import_items" DROP CONSTRAINT "import_items_source_source_id_pk";--> statement-breakpoint
ALTER TABLE "import_items" ADD CONSTRAINT "import_items_source_site_source_id_pk" PRIMARY KEY("source","site","source_id");--> statement-breakpoint
ALTER TABLE "import_jobs" ADD COLUMN "updates" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "import_jobs" ADD COLUMN "poems_updated" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "name" text;
