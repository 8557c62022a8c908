CREATE TABLE "dub_renders" (
	"id" text PRIMARY KEY NOT NULL,
	"dub_id" text NOT NULL,
	"language" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"automatic" boolean DEFAULT false NOT NULL,
	"version" integer NOT NULL,
	"key" text,
	"content_type" text,
	"duration_sec" real,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dub_segment_languages" (
	"segment_id" text NOT NULL,
	"dub_id" text NOT NULL,
	"language" text NOT NULL,
	"text" text,
	"start_time" real NOT NULL,
	"end_time" real NOT NULL,
	"audio_key" text,
	"audio_stale" boolean DEFAULT true NOT NULL,
	"tempo" real,
	"overflow_sec" real,
	CONSTRAINT "dub_segment_languages_segment_id_language_pk" PRIMARY KEY("segment_id","language")
);
--> statement-breakpoint
CREATE TABLE "dub_segments" (
	"id" text PRIMARY KEY NOT NULL,
	"dub_id" text NOT NULL,
	"speaker_id" text NOT NULL,
	"start_time" real NOT NULL,
	"end_time" real NOT NULL,
	"text" text NOT NULL,
	"words" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dub_speakers" (
	"id" text PRIMARY KEY NOT NULL,
	"dub_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"profile" jsonb,
	"voices" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"matched" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tuning" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dubs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text,
	"api_key_id" text,
	"request_id" text NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"stage" text NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"progress_message" text,
	"error" text,
	"refunded" boolean DEFAULT false NOT NULL,
	"source_lang_requested" text NOT NULL,
	"source_language" text,
	"target_languages" jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"input" jsonb NOT NULL,
	"csv_key" text,
	"credits" integer NOT NULL,
	"expected_duration_sec" real NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "dub_renders" ADD CONSTRAINT "dub_renders_dub_id_dubs_id_fk" FOREIGN KEY ("dub_id") REFERENCES "public"."dubs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dub_segment_languages" ADD CONSTRAINT "dub_segment_languages_segment_id_dub_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."dub_segments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dub_segment_languages" ADD CONSTRAINT "dub_segment_languages_dub_id_dubs_id_fk" FOREIGN KEY ("dub_id") REFERENCES "public"."dubs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dub_segments" ADD CONSTRAINT "dub_segments_dub_id_dubs_id_fk" FOREIGN KEY ("dub_id") REFERENCES "public"."dubs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dub_speakers" ADD CONSTRAINT "dub_speakers_dub_id_dubs_id_fk" FOREIGN KEY ("dub_id") REFERENCES "public"."dubs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dubs" ADD CONSTRAINT "dubs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dubs" ADD CONSTRAINT "dubs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dub_renders_dub_idx" ON "dub_renders" USING btree ("dub_id","language");--> statement-breakpoint
CREATE INDEX "dub_segment_languages_dub_idx" ON "dub_segment_languages" USING btree ("dub_id");--> statement-breakpoint
CREATE INDEX "dub_segments_dub_idx" ON "dub_segments" USING btree ("dub_id","start_time");--> statement-breakpoint
CREATE INDEX "dub_speakers_dub_idx" ON "dub_speakers" USING btree ("dub_id","position");--> statement-breakpoint
CREATE INDEX "dubs_workspace_idx" ON "dubs" USING btree ("workspace_id","created_at");