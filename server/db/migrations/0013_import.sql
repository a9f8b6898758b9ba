CREATE TABLE "import_items" (
	"source" text NOT NULL,
	"source_id" text NOT NULL,
	"poem_id" integer NOT NULL,
	"job_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_items_source_source_id_pk" PRIMARY KEY("source","source_id")
);
--> statement-breakpoint
CREATE TABLE "import_jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "import_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"source" text NOT NULL,
	"file_name" text NOT NULL,
	"state" text DEFAULT 'preview' NOT NULL,
	"parsed" jsonb NOT NULL,
	"excluded" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"poem_count" integer NOT NULL,
	"subscriber_count" integer NOT NULL,
	"importable_subscriber_count" integer NOT NULL,
	"selected_poem_count" integer NOT NULL,
	"fetch_covers" boolean DEFAULT true NOT NULL,
	"subscribers_consented" boolean DEFAULT false NOT NULL,
	"poem_cursor" integer DEFAULT 0 NOT NULL,
	"subscriber_cursor" integer DEFAULT 0 NOT NULL,
	"poems_imported" integer DEFAULT 0 NOT NULL,
	"poems_already_imported" integer DEFAULT 0 NOT NULL,
	"subscribers_imported" integer DEFAULT 0 NOT NULL,
	"subscribers_existing" integer DEFAULT 0 NOT NULL,
	"subscribers_skipped" integer DEFAULT 0 NOT NULL,
	"notes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"claimed_by" text,
	"lease_until" timestamp with time zone,
	"created_by" uuid,
	"confirmed_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_redirects" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "import_redirects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"path" text NOT NULL,
	"poem_id" integer NOT NULL,
	"job_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_redirects_path_unique" UNIQUE("path")
);
--> statement-breakpoint
ALTER TABLE "poems" ADD COLUMN "imported_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "consent_source" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "imported_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "import_items" ADD CONSTRAINT "import_items_poem_id_poems_id_fk" FOREIGN KEY ("poem_id") REFERENCES "public"."poems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_items" ADD CONSTRAINT "import_items_job_id_import_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."import_jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_redirects" ADD CONSTRAINT "import_redirects_poem_id_poems_id_fk" FOREIGN KEY ("poem_id") REFERENCES "public"."poems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_redirects" ADD CONSTRAINT "import_redirects_job_id_import_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."import_jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_jobs_importing_idx" ON "import_jobs" USING btree ("id") WHERE "import_jobs"."state" = 'importing';