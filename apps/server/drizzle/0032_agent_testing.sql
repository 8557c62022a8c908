CREATE TABLE "agent_test_folders" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"parent_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_test_invocations" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"created_by" text,
	"agent_id" text NOT NULL,
	"title" text NOT NULL,
	"repeat_count" integer DEFAULT 1 NOT NULL,
	"cancelled" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_test_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"invocation_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"test_id" text NOT NULL,
	"test_name" text NOT NULL,
	"test" jsonb NOT NULL,
	"position" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"response_mode" text,
	"agent_responses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"condition_result" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_tests" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"created_by" text,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"folder_id" text,
	"definition" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_test_folders" ADD CONSTRAINT "agent_test_folders_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_test_invocations" ADD CONSTRAINT "agent_test_invocations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_test_invocations" ADD CONSTRAINT "agent_test_invocations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_test_runs" ADD CONSTRAINT "agent_test_runs_invocation_id_agent_test_invocations_id_fk" FOREIGN KEY ("invocation_id") REFERENCES "public"."agent_test_invocations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_test_runs" ADD CONSTRAINT "agent_test_runs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_tests" ADD CONSTRAINT "agent_tests_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_tests" ADD CONSTRAINT "agent_tests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_test_folders_workspace_idx" ON "agent_test_folders" USING btree ("workspace_id","parent_id");--> statement-breakpoint
CREATE INDEX "agent_test_invocations_workspace_idx" ON "agent_test_invocations" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "agent_test_runs_invocation_idx" ON "agent_test_runs" USING btree ("invocation_id","position");--> statement-breakpoint
CREATE INDEX "agent_test_runs_test_idx" ON "agent_test_runs" USING btree ("workspace_id","test_id");--> statement-breakpoint
CREATE INDEX "agent_tests_workspace_idx" ON "agent_tests" USING btree ("workspace_id","created_at");