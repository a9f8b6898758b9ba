CREATE TABLE "digest_deliveries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "digest_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"run_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_by" text,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "digest_deliveries_run_subscription_key" UNIQUE("run_id","subscription_id")
);
--> statement-breakpoint
ALTER TABLE "mail_runs" ADD COLUMN "content" jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_runs" ADD COLUMN "status" text DEFAULT 'sending' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_runs" ADD COLUMN "paused_reason" text;--> statement-breakpoint
ALTER TABLE "mail_runs" ADD COLUMN "recipient_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_runs" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "mail_runs" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "digest_deliveries" ADD CONSTRAINT "digest_deliveries_run_id_mail_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."mail_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_deliveries" ADD CONSTRAINT "digest_deliveries_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "digest_deliveries_unfinished_idx" ON "digest_deliveries" USING btree ("next_attempt_at") WHERE "digest_deliveries"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "digest_deliveries_run_status_idx" ON "digest_deliveries" USING btree ("run_id","status");--> statement-breakpoint
ALTER TABLE "mail_runs" ADD CONSTRAINT "mail_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "echos_created_at_idx" ON "echos" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_runs_one_active_idx" ON "mail_runs" USING btree ((true)) WHERE "mail_runs"."status" in ('sending', 'paused');