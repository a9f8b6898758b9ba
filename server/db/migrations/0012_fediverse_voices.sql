CREATE TABLE "poem_boosts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "poem_boosts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"poem_id" integer NOT NULL,
	"remote_author_id" integer NOT NULL,
	"activity_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "poem_boosts_author_poem_key" UNIQUE("remote_author_id","poem_id")
);
--> statement-breakpoint
CREATE TABLE "remote_authors" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "remote_authors_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"actor_url" text NOT NULL,
	"handle" text NOT NULL,
	"name" text,
	"avatar_url" text,
	"profile_url" text,
	"server" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "remote_authors_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "remote_authors_actor_url_unique" UNIQUE("actor_url")
);
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "echos" ADD COLUMN "remote_activity_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_remote" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "whispers" ADD COLUMN "remote_note_id" text;--> statement-breakpoint
ALTER TABLE "whispers" ADD COLUMN "remote_url" text;--> statement-breakpoint
ALTER TABLE "whispers" ADD COLUMN "full_text" text;--> statement-breakpoint
ALTER TABLE "poem_boosts" ADD CONSTRAINT "poem_boosts_poem_id_poems_id_fk" FOREIGN KEY ("poem_id") REFERENCES "public"."poems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poem_boosts" ADD CONSTRAINT "poem_boosts_remote_author_id_remote_authors_id_fk" FOREIGN KEY ("remote_author_id") REFERENCES "public"."remote_authors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_authors" ADD CONSTRAINT "remote_authors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "poem_boosts_poem_id_idx" ON "poem_boosts" USING btree ("poem_id");--> statement-breakpoint
CREATE INDEX "remote_authors_server_idx" ON "remote_authors" USING btree ("server");--> statement-breakpoint
ALTER TABLE "whispers" ADD CONSTRAINT "whispers_remote_note_id_unique" UNIQUE("remote_note_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_email_unless_remote" CHECK ("users"."is_remote" or "users"."email" is not null);