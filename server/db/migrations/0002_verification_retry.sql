ALTER TABLE "subscriptions" ADD COLUMN "verification_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "verification_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "subscriptions_verification_due_idx" ON "subscriptions" USING btree ("verification_due_at") WHERE "subscriptions"."verification_due_at" is not null;