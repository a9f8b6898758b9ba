CREATE TABLE "digest_schedule" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"enabled" boolean NOT NULL,
	"weekday" integer NOT NULL,
	"time" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "digest_schedule_one_row" CHECK ("digest_schedule"."id" = 1)
);
--> statement-breakpoint
DROP INDEX "poems_newest_first_idx";--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "draft" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "publish_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_runs" ADD COLUMN "scheduled_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_runs" ADD COLUMN "skip_reason" text;--> statement-breakpoint
ALTER TABLE "poems" ADD COLUMN "draft" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "poems" ADD COLUMN "publish_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Poems and books saved before publication times existed were published when they were made.
UPDATE "poems" SET "publish_at" = "created_at";--> statement-breakpoint
UPDATE "books" SET "publish_at" = "created_at";--> statement-breakpoint
CREATE INDEX "poems_newest_published_idx" ON "poems" USING btree ("publish_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
ALTER TABLE "mail_runs" ADD CONSTRAINT "mail_runs_scheduled_for_unique" UNIQUE("scheduled_for");