CREATE TABLE "audio_native_projects" (
	"project_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"author" text DEFAULT '' NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"small" boolean DEFAULT false NOT NULL,
	"text_color" text NOT NULL,
	"background_color" text NOT NULL,
	"sessionization_minutes" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"allowed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"page_url" text,
	"auto_publish" boolean DEFAULT true NOT NULL,
	"published_snapshot_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audio_native_sessions" (
	"project_id" text NOT NULL,
	"day" text NOT NULL,
	"session_id" text NOT NULL,
	"loads" integer DEFAULT 0 NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	"listened_secs" real DEFAULT 0 NOT NULL,
	"origin" text,
	CONSTRAINT "audio_native_sessions_project_id_day_session_id_pk" PRIMARY KEY("project_id","day","session_id")
);
--> statement-breakpoint
ALTER TABLE "audio_native_projects" ADD CONSTRAINT "audio_native_projects_project_id_studio_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."studio_projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audio_native_projects" ADD CONSTRAINT "audio_native_projects_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audio_native_sessions" ADD CONSTRAINT "audio_native_sessions_project_id_audio_native_projects_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."audio_native_projects"("project_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audio_native_projects_workspace_idx" ON "audio_native_projects" USING btree ("workspace_id");