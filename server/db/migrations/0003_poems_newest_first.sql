DROP INDEX "poems_created_at_idx";--> statement-breakpoint
CREATE INDEX "poems_newest_first_idx" ON "poems" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);