CREATE TABLE "poem_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "poem_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"poem_id" integer NOT NULL,
	"title" text NOT NULL,
	"stanzas" jsonb NOT NULL,
	"saved_at" timestamp with time zone NOT NULL,
	"replaced_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "echos" DROP CONSTRAINT "echos_poem_stanza_user_session_key";--> statement-breakpoint
DROP INDEX "journal_entries_user_poem_stanza_key";--> statement-breakpoint
ALTER TABLE "echos" ADD COLUMN "removed_with_version_id" integer;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD COLUMN "removed_with_version_id" integer;--> statement-breakpoint
ALTER TABLE "whispers" ADD COLUMN "removed_with_version_id" integer;--> statement-breakpoint
ALTER TABLE "poem_versions" ADD CONSTRAINT "poem_versions_poem_id_poems_id_fk" FOREIGN KEY ("poem_id") REFERENCES "public"."poems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poem_versions" ADD CONSTRAINT "poem_versions_replaced_by_users_id_fk" FOREIGN KEY ("replaced_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "poem_versions_poem_idx" ON "poem_versions" USING btree ("poem_id","created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "echos" ADD CONSTRAINT "echos_removed_with_version_id_poem_versions_id_fk" FOREIGN KEY ("removed_with_version_id") REFERENCES "public"."poem_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_removed_with_version_id_poem_versions_id_fk" FOREIGN KEY ("removed_with_version_id") REFERENCES "public"."poem_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whispers" ADD CONSTRAINT "whispers_removed_with_version_id_poem_versions_id_fk" FOREIGN KEY ("removed_with_version_id") REFERENCES "public"."poem_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "echos" ADD CONSTRAINT "echos_poem_stanza_user_session_key" UNIQUE NULLS NOT DISTINCT("poem_id","stanza_index","user_id","session_id","removed_with_version_id");--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_user_poem_stanza_key" UNIQUE NULLS NOT DISTINCT("user_id","poem_id","stanza_index","removed_with_version_id");