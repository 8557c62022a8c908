CREATE TABLE "generated_voices" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"description" text NOT NULL,
	"language" text NOT NULL,
	"base_voice_id" text NOT NULL,
	"profile" jsonb NOT NULL,
	"labels" jsonb NOT NULL,
	"settings" jsonb NOT NULL,
	"audio_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voice_collections" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"voice_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voice_samples" (
	"id" text PRIMARY KEY NOT NULL,
	"voice_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"hash" text NOT NULL,
	"duration_secs" real NOT NULL,
	"storage_key" text NOT NULL,
	"profile" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voices" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"owner_user_id" text,
	"name" text NOT NULL,
	"description" text,
	"labels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"category" text NOT NULL,
	"language" text NOT NULL,
	"base_voice_id" text NOT NULL,
	"profile" jsonb,
	"settings" jsonb,
	"fine_tuning_state" text,
	"sharing_status" text,
	"original_voice_id" text,
	"public_owner_id" text,
	"live_moderation_enabled" boolean DEFAULT false NOT NULL,
	"free_users_allowed" boolean DEFAULT true NOT NULL,
	"cloned_by_count" integer DEFAULT 0 NOT NULL,
	"shared_at" timestamp with time zone,
	"safety_control" text,
	"requires_verification" boolean DEFAULT false NOT NULL,
	"is_verified" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "voice_add_edit_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "generated_voices" ADD CONSTRAINT "generated_voices_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_collections" ADD CONSTRAINT "voice_collections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_samples" ADD CONSTRAINT "voice_samples_voice_id_voices_id_fk" FOREIGN KEY ("voice_id") REFERENCES "public"."voices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_samples" ADD CONSTRAINT "voice_samples_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voices" ADD CONSTRAINT "voices_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voices" ADD CONSTRAINT "voices_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generated_voices_workspace_idx" ON "generated_voices" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "voice_collections_workspace_idx" ON "voice_collections" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "voice_samples_voice_idx" ON "voice_samples" USING btree ("voice_id");--> statement-breakpoint
CREATE INDEX "voices_workspace_created_idx" ON "voices" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "voices_shared_idx" ON "voices" USING btree ("shared_at") WHERE "voices"."sharing_status" = 'enabled';--> statement-breakpoint
CREATE INDEX "voices_original_idx" ON "voices" USING btree ("original_voice_id");