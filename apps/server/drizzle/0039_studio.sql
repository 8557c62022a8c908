CREATE TABLE "studio_blocks" (
	"id" text PRIMARY KEY NOT NULL,
	"chapter_id" text NOT NULL,
	"project_id" text NOT NULL,
	"position" integer NOT NULL,
	"sub_type" text DEFAULT 'p' NOT NULL,
	"nodes" jsonb NOT NULL,
	"model_id" text,
	"voice_settings" jsonb,
	"converted_hash" text
);
--> statement-breakpoint
CREATE TABLE "studio_chapter_snapshots" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"chapter_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"audio_key" text NOT NULL,
	"duration_secs" real NOT NULL,
	"alignments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "studio_chapters" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"state" text DEFAULT 'default' NOT NULL,
	"conversion_progress" real,
	"last_conversion_at" timestamp with time zone,
	"last_conversion_error" text,
	"last_block_ids_order_change_ms" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "studio_project_snapshots" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"chapter_snapshot_ids" jsonb NOT NULL,
	"duration_secs" real NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "studio_projects" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text,
	"name" text NOT NULL,
	"state" text DEFAULT 'default' NOT NULL,
	"default_title_voice_id" text NOT NULL,
	"default_paragraph_voice_id" text NOT NULL,
	"default_model_id" text NOT NULL,
	"quality_preset" text DEFAULT 'standard' NOT NULL,
	"title" text,
	"author" text,
	"isbn_number" text,
	"description" text DEFAULT '' NOT NULL,
	"genres" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"language" text,
	"content_type" text,
	"original_publication_date" text,
	"cover_image_url" text DEFAULT '' NOT NULL,
	"target_audience" text DEFAULT 'all ages' NOT NULL,
	"mature_content" boolean DEFAULT false NOT NULL,
	"fiction" text,
	"acx_volume_normalization" boolean DEFAULT false NOT NULL,
	"volume_normalization" boolean DEFAULT false NOT NULL,
	"apply_text_normalization" text DEFAULT 'auto' NOT NULL,
	"source_type" text DEFAULT 'blank' NOT NULL,
	"callback_url" text,
	"pronunciation_dictionary_locators" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"project_settings" jsonb DEFAULT '{"continue_playing":false}'::jsonb NOT NULL,
	"last_chapters_order_change_ms" bigint,
	"converting_chapter_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"added_to_queue_at_unix" integer DEFAULT 0 NOT NULL,
	"queue_position" integer,
	"latest_snapshot_id" text,
	"last_conversion_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "studio_blocks" ADD CONSTRAINT "studio_blocks_chapter_id_studio_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."studio_chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_chapter_snapshots" ADD CONSTRAINT "studio_chapter_snapshots_project_id_studio_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."studio_projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_chapters" ADD CONSTRAINT "studio_chapters_project_id_studio_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."studio_projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_project_snapshots" ADD CONSTRAINT "studio_project_snapshots_project_id_studio_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."studio_projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_projects" ADD CONSTRAINT "studio_projects_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_projects" ADD CONSTRAINT "studio_projects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "studio_blocks_chapter_idx" ON "studio_blocks" USING btree ("chapter_id","position");--> statement-breakpoint
CREATE INDEX "studio_chapter_snapshots_chapter_idx" ON "studio_chapter_snapshots" USING btree ("chapter_id","created_at");--> statement-breakpoint
CREATE INDEX "studio_chapters_project_idx" ON "studio_chapters" USING btree ("project_id","position");--> statement-breakpoint
CREATE INDEX "studio_project_snapshots_project_idx" ON "studio_project_snapshots" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "studio_projects_workspace_idx" ON "studio_projects" USING btree ("workspace_id","created_at");