ALTER TABLE "books" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "poems" ADD COLUMN "deleted_at" timestamp with time zone;