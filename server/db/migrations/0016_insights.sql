CREATE TABLE "daily_counts" (
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"part" text DEFAULT '' NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "daily_counts_metric_day_subject_part_pk" PRIMARY KEY("metric","day","subject","part")
);
--> statement-breakpoint
CREATE TABLE "day_visitors" (
	"day" date NOT NULL,
	"scope" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "day_visitors_day_scope_hash_pk" PRIMARY KEY("day","scope","hash")
);
--> statement-breakpoint
CREATE TABLE "digest_clicks" (
	"run_id" integer NOT NULL,
	"link" integer NOT NULL,
	"url" text NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "digest_clicks_run_id_link_pk" PRIMARY KEY("run_id","link")
);
--> statement-breakpoint
CREATE TABLE "visit_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "digest_clicks" ADD CONSTRAINT "digest_clicks_run_id_mail_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."mail_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "daily_counts_subject_idx" ON "daily_counts" USING btree ("subject","metric","day");