CREATE TABLE "transcripts" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text,
	"api_key_id" text,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"error" text,
	"model_id" text NOT NULL,
	"options" jsonb NOT NULL,
	"language_code" text,
	"duration_secs" real,
	"channels" integer,
	"source_key" text,
	"audio_key" text,
	"transcript" jsonb,
	"speaker_names" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"request_id" text NOT NULL,
	"webhook" boolean DEFAULT false NOT NULL,
	"webhook_id" text,
	"webhook_metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "transcripts" ADD CONSTRAINT "transcripts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcripts" ADD CONSTRAINT "transcripts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transcripts_workspace_created_idx" ON "transcripts" USING btree ("workspace_id","created_at","id");