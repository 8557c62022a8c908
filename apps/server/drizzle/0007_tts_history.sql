CREATE TABLE "concurrency_slots" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "history_items" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text,
	"source" text NOT NULL,
	"voice_id" text NOT NULL,
	"voice_name" text NOT NULL,
	"voice_category" text NOT NULL,
	"model_id" text NOT NULL,
	"text" text NOT NULL,
	"settings" jsonb NOT NULL,
	"output_format" text NOT NULL,
	"content_type" text NOT NULL,
	"audio_key" text NOT NULL,
	"audio_bytes" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"alignment" jsonb,
	"character_count_change_from" integer NOT NULL,
	"character_count_change_to" integer NOT NULL,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "concurrency_slots" ADD CONSTRAINT "concurrency_slots_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_items" ADD CONSTRAINT "history_items_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_items" ADD CONSTRAINT "history_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "concurrency_slots_workspace_idx" ON "concurrency_slots" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "history_items_workspace_created_idx" ON "history_items" USING btree ("workspace_id","created_at","id");