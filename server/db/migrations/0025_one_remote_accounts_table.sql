-- One table for the fediverse accounts the site heard from (docs/decisions/075-one-table-of-remote-accounts.md):
-- remote_authors (whispers, echoes, boosts) and remote_actors (followers, senders) become
-- remote_accounts, losing no follower, whisper, echo or boost. An author keeps its id, so its
-- boosts keep pointing at it; an account known only as a follower or sender gets a new one.
CREATE TABLE "remote_accounts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "remote_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"actor_url" text NOT NULL,
	"user_id" uuid,
	"handle" text NOT NULL,
	"name" text,
	"avatar_url" text,
	"profile_url" text,
	"server" text NOT NULL,
	"inbox" text,
	"shared_inbox" text,
	"public_key_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "remote_accounts_actor_url_unique" UNIQUE("actor_url"),
	CONSTRAINT "remote_accounts_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
-- Authors first, with their ids; the details of whichever row was refreshed last.
INSERT INTO "remote_accounts"
	("id", "actor_url", "user_id", "handle", "name", "avatar_url", "profile_url", "server",
	 "inbox", "shared_inbox", "public_key_id", "created_at", "updated_at")
OVERRIDING SYSTEM VALUE
SELECT a."id", a."actor_url", a."user_id",
	CASE WHEN r."updated_at" > a."updated_at" THEN r."handle" ELSE a."handle" END,
	CASE WHEN r."updated_at" > a."updated_at" THEN r."name" ELSE a."name" END,
	CASE WHEN r."updated_at" > a."updated_at" THEN r."avatar_url" ELSE a."avatar_url" END,
	CASE WHEN r."updated_at" > a."updated_at" THEN r."profile_url" ELSE a."profile_url" END,
	a."server", r."inbox", r."shared_inbox", r."public_key_id", a."created_at",
	greatest(a."updated_at", r."updated_at")
FROM "remote_authors" a LEFT JOIN "remote_actors" r ON r."id" = a."actor_url";
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('"remote_accounts"', 'id'), coalesce(max("id"), 0) + 1, false) FROM "remote_accounts";
--> statement-breakpoint
INSERT INTO "remote_accounts"
	("actor_url", "handle", "name", "avatar_url", "profile_url", "server", "inbox",
	 "shared_inbox", "public_key_id", "created_at", "updated_at")
SELECT r."id", r."handle", r."name", r."avatar_url", r."profile_url", r."server", r."inbox",
	r."shared_inbox", r."public_key_id", r."updated_at", r."updated_at"
FROM "remote_actors" r
WHERE NOT EXISTS (SELECT 1 FROM "remote_authors" a WHERE a."actor_url" = r."id");
--> statement-breakpoint
ALTER TABLE "fediverse_followers" DROP CONSTRAINT "fediverse_followers_actor_id_remote_actors_id_fk";--> statement-breakpoint
ALTER TABLE "poem_boosts" DROP CONSTRAINT "poem_boosts_remote_author_id_remote_authors_id_fk";--> statement-breakpoint
ALTER TABLE "poem_boosts" DROP CONSTRAINT "poem_boosts_author_poem_key";--> statement-breakpoint
ALTER TABLE "poem_boosts" RENAME COLUMN "remote_author_id" TO "remote_account_id";--> statement-breakpoint
DROP TABLE "remote_actors";--> statement-breakpoint
DROP TABLE "remote_authors";--> statement-breakpoint
ALTER TABLE "remote_accounts" ADD CONSTRAINT "remote_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "remote_accounts_server_idx" ON "remote_accounts" USING btree ("server");--> statement-breakpoint
ALTER TABLE "fediverse_followers" ADD CONSTRAINT "fediverse_followers_actor_id_remote_accounts_actor_url_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."remote_accounts"("actor_url") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poem_boosts" ADD CONSTRAINT "poem_boosts_remote_account_id_remote_accounts_id_fk" FOREIGN KEY ("remote_account_id") REFERENCES "public"."remote_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poem_boosts" ADD CONSTRAINT "poem_boosts_account_poem_key" UNIQUE("remote_account_id","poem_id");
