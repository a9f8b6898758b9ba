CREATE TABLE "fediverse_activities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fediverse_activities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"activity_id" text NOT NULL,
	"type" text NOT NULL,
	"poem_id" integer NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fediverse_activities_activity_id_unique" UNIQUE("activity_id")
);
--> statement-breakpoint
CREATE TABLE "fediverse_deliveries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fediverse_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"activity_id" integer NOT NULL,
	"inbox" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_by" text,
	"lease_until" timestamp with time zone,
	"last_status" integer,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fediverse_deliveries_activity_inbox_key" UNIQUE("activity_id","inbox")
);
--> statement-breakpoint
CREATE TABLE "fediverse_poem_state" (
	"poem_id" integer PRIMARY KEY NOT NULL,
	"object_id" text,
	"slug" text,
	"state" text NOT NULL,
	"content_hash" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fediverse_deliveries" ADD CONSTRAINT "fediverse_deliveries_activity_id_fediverse_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."fediverse_activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fediverse_activities_poem_idx" ON "fediverse_activities" USING btree ("poem_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "fediverse_deliveries_unfinished_idx" ON "fediverse_deliveries" USING btree ("next_attempt_at") WHERE "fediverse_deliveries"."state" in ('pending', 'retrying');