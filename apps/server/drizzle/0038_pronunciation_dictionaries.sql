CREATE TABLE "pronunciation_dictionaries" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"created_by" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"workspace_access" text,
	"latest_version_id" text NOT NULL,
	"latest_rules_num" integer NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pronunciation_dictionary_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"dictionary_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"number" integer NOT NULL,
	"rules" jsonb NOT NULL,
	"rules_num" integer NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_pronunciation_defaults" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"locators" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pronunciation_dictionaries" ADD CONSTRAINT "pronunciation_dictionaries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pronunciation_dictionary_versions" ADD CONSTRAINT "pronunciation_dictionary_versions_dictionary_id_pronunciation_dictionaries_id_fk" FOREIGN KEY ("dictionary_id") REFERENCES "public"."pronunciation_dictionaries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pronunciation_dictionary_versions" ADD CONSTRAINT "pronunciation_dictionary_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pronunciation_dictionary_versions" ADD CONSTRAINT "pronunciation_dictionary_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_pronunciation_defaults" ADD CONSTRAINT "workspace_pronunciation_defaults_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pronunciation_dictionaries_workspace_idx" ON "pronunciation_dictionaries" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "pronunciation_dictionary_versions_dictionary_idx" ON "pronunciation_dictionary_versions" USING btree ("dictionary_id","number");