-- The queues that kept their claim in a column of their own now share server/jobs/leased-rows.ts
-- (docs/decisions/077-one-home-for-background-work.md): a claim token and a lease on each row.
-- A confirmation's due time is no longer also its lease; Fedify's queue keeps its locks as leases.
ALTER TABLE "chapbooks" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "fediverse_messages" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "fediverse_messages" RENAME COLUMN "locked_until" TO "lease_until";--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "lease_until" timestamp with time zone;