CREATE TABLE "fediverse_blocks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fediverse_blocks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fediverse_blocks_kind_value_key" UNIQUE("kind","value")
);
--> statement-breakpoint
CREATE TABLE "fediverse_followers" (
	"actor_id" text PRIMARY KEY NOT NULL,
	"follow_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fediverse_keys" (
	"algorithm" text PRIMARY KEY NOT NULL,
	"private_key" jsonb NOT NULL,
	"public_key" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fediverse_kv" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "fediverse_messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fediverse_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"message" jsonb NOT NULL,
	"ordering_key" text,
	"ready_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remote_actors" (
	"id" text PRIMARY KEY NOT NULL,
	"handle" text NOT NULL,
	"name" text,
	"avatar_url" text,
	"profile_url" text,
	"inbox" text NOT NULL,
	"shared_inbox" text,
	"public_key_id" text,
	"server" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fediverse_followers" ADD CONSTRAINT "fediverse_followers_actor_id_remote_actors_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."remote_actors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fediverse_followers_created_at_idx" ON "fediverse_followers" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "fediverse_kv_expires_at_idx" ON "fediverse_kv" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "fediverse_messages_ready_idx" ON "fediverse_messages" USING btree ("ready_at","id");--> statement-breakpoint
CREATE INDEX "remote_actors_server_idx" ON "remote_actors" USING btree ("server");