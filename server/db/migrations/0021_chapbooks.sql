CREATE TABLE "chapbook_poems" (
	"chapbook_id" integer NOT NULL,
	"poem_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "chapbook_poems_chapbook_id_position_pk" PRIMARY KEY("chapbook_id","position")
);
--> statement-breakpoint
CREATE TABLE "chapbooks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chapbooks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"dedication" text,
	"epigraph" text,
	"acknowledgements" text,
	"about_poet" text,
	"trim" text DEFAULT 'a5' NOT NULL,
	"bleed" boolean DEFAULT false NOT NULL,
	"recto_starts" boolean DEFAULT false NOT NULL,
	"downloadable" boolean DEFAULT false NOT NULL,
	"with_readings" boolean DEFAULT false NOT NULL,
	"build_state" text DEFAULT 'queued' NOT NULL,
	"build_progress" integer DEFAULT 0 NOT NULL,
	"build_error" text,
	"built_from" text,
	"built_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"pdf" "bytea",
	"epub" "bytea",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chapbooks_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "poem_versions" ADD COLUMN "stanza_timings" jsonb;--> statement-breakpoint
ALTER TABLE "poems" ADD COLUMN "stanza_timings" jsonb;--> statement-breakpoint
ALTER TABLE "poems" ADD COLUMN "reading_duration" double precision;--> statement-breakpoint
ALTER TABLE "chapbook_poems" ADD CONSTRAINT "chapbook_poems_chapbook_id_chapbooks_id_fk" FOREIGN KEY ("chapbook_id") REFERENCES "public"."chapbooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapbook_poems" ADD CONSTRAINT "chapbook_poems_poem_id_poems_id_fk" FOREIGN KEY ("poem_id") REFERENCES "public"."poems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chapbook_poems_poem_idx" ON "chapbook_poems" USING btree ("poem_id");