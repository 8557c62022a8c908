CREATE TABLE "batch_call_recipients" (
	"id" text PRIMARY KEY NOT NULL,
	"batch_id" text NOT NULL,
	"position" integer NOT NULL,
	"phone_number" text NOT NULL,
	"client_data" jsonb,
	"status" text NOT NULL,
	"call_id" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "batch_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"created_by" text,
	"name" text NOT NULL,
	"agent_id" text NOT NULL,
	"agent_name" text NOT NULL,
	"phone_number_id" text NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"timezone" text,
	"status" text NOT NULL,
	"target_concurrency" integer,
	"ringing_timeout_secs" integer,
	"retry_count" integer DEFAULT 0 NOT NULL,
	"stream_origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "phone_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text,
	"agent_id" text NOT NULL,
	"phone_number_id" text,
	"direction" text NOT NULL,
	"agent_number" text NOT NULL,
	"external_number" text NOT NULL,
	"token_hash" text NOT NULL,
	"client_data" jsonb,
	"call_sid" text,
	"stream_sid" text,
	"conversation_id" text,
	"status" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"streamed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "phone_numbers" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"created_by" text,
	"provider" text NOT NULL,
	"phone_number" text NOT NULL,
	"label" text NOT NULL,
	"supports_inbound" boolean DEFAULT true NOT NULL,
	"supports_outbound" boolean DEFAULT true NOT NULL,
	"agent_id" text,
	"twilio_account_sid" text,
	"twilio_token_sealed" text,
	"inbound_trunk" jsonb,
	"outbound_trunk" jsonb,
	"livekit_stack" text DEFAULT 'standard' NOT NULL,
	"store_sip_messages" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "phone_call" jsonb;--> statement-breakpoint
ALTER TABLE "batch_call_recipients" ADD CONSTRAINT "batch_call_recipients_batch_id_batch_calls_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batch_calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_calls" ADD CONSTRAINT "batch_calls_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_calls" ADD CONSTRAINT "batch_calls_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_calls" ADD CONSTRAINT "phone_calls_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_calls" ADD CONSTRAINT "phone_calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batch_call_recipients_batch_idx" ON "batch_call_recipients" USING btree ("batch_id","position");--> statement-breakpoint
CREATE INDEX "batch_calls_workspace_idx" ON "batch_calls" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "batch_calls_status_idx" ON "batch_calls" USING btree ("status","scheduled_at");--> statement-breakpoint
CREATE UNIQUE INDEX "phone_calls_token_idx" ON "phone_calls" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "phone_calls_workspace_idx" ON "phone_calls" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "phone_numbers_workspace_idx" ON "phone_numbers" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "phone_numbers_workspace_number_idx" ON "phone_numbers" USING btree ("workspace_id","phone_number");