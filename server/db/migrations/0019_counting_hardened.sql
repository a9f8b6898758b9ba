CREATE TABLE "day_addresses" (
	"day" date NOT NULL,
	"hash" text NOT NULL,
	"visitors" integer NOT NULL,
	"hour" integer NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "day_addresses_day_hash_pk" PRIMARY KEY("day","hash")
);
--> statement-breakpoint
ALTER TABLE "day_visitors" ADD COLUMN "reached" integer[];--> statement-breakpoint
ALTER TABLE "day_visitors" ADD COLUMN "shared" integer[];--> statement-breakpoint
-- Hashes made before decision 055 were keyed by the day alone and shared by every page of a reader:
-- they go now; today's readers count again under the new keys.
DELETE FROM "day_visitors";
