CREATE TABLE "convai_settings" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"initiation_webhook" jsonb,
	"post_call_webhook_id" text,
	"webhook_options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"can_use_mcp_servers" boolean DEFAULT false NOT NULL,
	"rag_retention_period_days" integer,
	"conversation_embedding_retention_days" integer,
	"default_livekit_stack" text,
	"dashboard_charts" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "convai_settings" ADD CONSTRAINT "convai_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;