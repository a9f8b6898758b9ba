CREATE TABLE "guest_voices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "guest_voices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"handle" text NOT NULL,
	"social_url" text NOT NULL,
	"avatar_url" text,
	"header_image_url" text,
	"bio" text NOT NULL,
	"title" text NOT NULL,
	"body" jsonb NOT NULL,
	"other_works" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"position" integer NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"submission_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guest_voices_slug_unique" UNIQUE("slug"),
	CONSTRAINT "guest_voices_submission_id_unique" UNIQUE("submission_id")
);
--> statement-breakpoint
ALTER TABLE "guest_voices" ADD CONSTRAINT "guest_voices_submission_id_guest_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."guest_submissions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "guest_voices_position_idx" ON "guest_voices" USING btree ("position");--> statement-breakpoint
-- The three built-in guest voices, on every fresh site with or without demo content.
INSERT INTO "guest_voices" ("slug", "name", "handle", "social_url", "avatar_url", "header_image_url", "bio", "title", "body", "other_works", "position") VALUES
('maren-hollis', 'Maren Hollis', '@marenwrites', 'https://example.com/maren-hollis', '/guest-voices/maren-hollis-avatar.svg', '/guest-voices/maren-hollis-header.svg', 'Maren keeps bees and a notebook on a windy island. She writes about small labours and the weather inside them.', 'What the Hive Knows', '["All summer the hive argues with the wind\nand wins, a little, every day,\nby staying exactly where it is.","I lift the lid and the hum rises to meet me\nlike a room of people\nwho were talking about me kindly.","I have tried to be the bee that leaves.\nI have tried to be the bee that stays.\nThe hive does not mind which I am.\nIt only asks that I come home with something sweet."]'::jsonb, '[{"title":"Salt Year","slug":"salt-year"},{"title":"Inventory of Gulls","slug":"inventory-of-gulls"}]'::jsonb, 1),
('tobias-okafor-reyes', 'Tobias Okafor-Reyes', '@tobias.verse', 'https://example.com/tobias', NULL, NULL, 'Tobias drives the night bus and writes between stops. His poems are about cities after midnight and the people who keep them.', 'Last Stop, Riverside', '["The bus sighs at the end of the line\nas if it, too, had somewhere\nit would rather be.","One passenger left: a girl asleep\nwith her head against the window,\nher stop three stops behind us.","I let the engine run.\nI let the heater hum.\nThe timetable can wait for a dream to finish.","When she wakes I''ll say, It''s all right.\nWe''ll go back round.\nEverybody misses their stop once."]'::jsonb, '[{"title":"Depot Psalm","slug":"depot-psalm"}]'::jsonb, 2),
('ines-calloway', 'Inès Calloway', '@ines.calloway', 'https://example.com/ines', '/guest-voices/ines-calloway-avatar.svg', NULL, 'Inès is a translator and a grandmother of four. She writes in the gaps between two languages.', 'Two Words for Home', '["In my mother''s tongue the word for home\nis the same as the word for hearth.\nIn yours, it is the same as the door.","I have lived sixty years between them,\nkeeping a fire going\nin a house that was always opening.","Now my grandchildren ask me which is right.\nBoth, I tell them.\nThe fire is how you stay. The door is how they find you."]'::jsonb, '[]'::jsonb, 3);