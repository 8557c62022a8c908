CREATE TABLE "auth_second_factors" (
	"user_id" text PRIMARY KEY NOT NULL,
	"totp_secret" text,
	"totp_enabled_at" timestamp with time zone,
	"totp_last_step" integer,
	"backup_code_hash" text
);
--> statement-breakpoint
CREATE TABLE "billing_credit_periods" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"next_reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_consents" (
	"user_id" text PRIMARY KEY NOT NULL,
	"ccpa_opt_out" boolean DEFAULT false NOT NULL,
	"geo_location" jsonb,
	"analytics_consent" text,
	"accepted_bipa_terms" boolean DEFAULT false NOT NULL,
	"bipa_terms_accepted_at" timestamp with time zone,
	"terms_agreed_to" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_consents" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"training_opt_out" boolean DEFAULT false NOT NULL,
	"training_opt_out_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "credit_balances" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"used" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_referrals" (
	"user_id" text PRIMARY KEY NOT NULL,
	"referral_link_code" text,
	"referred_by_code" text,
	"signup_source" jsonb,
	CONSTRAINT "user_referrals_referral_link_code_unique" UNIQUE("referral_link_code")
);
--> statement-breakpoint
CREATE TABLE "user_onboarding" (
	"user_id" text PRIMARY KEY NOT NULL,
	"is_onboarding_completed" boolean DEFAULT true NOT NULL,
	"is_onboarding_checklist_completed" boolean DEFAULT true NOT NULL,
	"onboarding_survey" jsonb,
	"onboarding_checklist" jsonb
);
--> statement-breakpoint
CREATE TABLE "voice_add_edit_counts" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_referral_link_code_unique";--> statement-breakpoint
DROP INDEX "workspaces_next_reset_idx";--> statement-breakpoint
ALTER TABLE "auth_second_factors" ADD CONSTRAINT "auth_second_factors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_credit_periods" ADD CONSTRAINT "billing_credit_periods_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_consents" ADD CONSTRAINT "user_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_consents" ADD CONSTRAINT "workspace_consents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_balances" ADD CONSTRAINT "credit_balances_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_referrals" ADD CONSTRAINT "user_referrals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_onboarding" ADD CONSTRAINT "user_onboarding_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_add_edit_counts" ADD CONSTRAINT "voice_add_edit_counts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_credit_periods_next_idx" ON "billing_credit_periods" USING btree ("next_reset_at");--> statement-breakpoint
-- Issue 26 item 3: each module's columns move into its own tables, with their values.
INSERT INTO "auth_second_factors" ("user_id", "totp_secret", "totp_enabled_at", "totp_last_step", "backup_code_hash")
  SELECT "id", "totp_secret", "totp_enabled_at", "totp_last_step", "backup_code_hash" FROM "users"
  WHERE "totp_secret" IS NOT NULL OR "backup_code_hash" IS NOT NULL;--> statement-breakpoint
INSERT INTO "user_consents" ("user_id", "ccpa_opt_out", "geo_location", "analytics_consent", "accepted_bipa_terms", "bipa_terms_accepted_at", "terms_agreed_to")
  SELECT "id", "ccpa_opt_out", "geo_location", "analytics_consent", "accepted_bipa_terms", "bipa_terms_accepted_at", "terms_agreed_to" FROM "users";--> statement-breakpoint
INSERT INTO "user_onboarding" ("user_id", "is_onboarding_completed", "is_onboarding_checklist_completed", "onboarding_survey", "onboarding_checklist")
  SELECT "id", "is_onboarding_completed", "is_onboarding_checklist_completed", "onboarding_survey", "onboarding_checklist" FROM "users";--> statement-breakpoint
INSERT INTO "user_referrals" ("user_id", "referral_link_code", "referred_by_code", "signup_source")
  SELECT "id", "referral_link_code", "referred_by_code", "signup_source" FROM "users"
  WHERE "referral_link_code" IS NOT NULL OR "referred_by_code" IS NOT NULL OR "signup_source" IS NOT NULL;--> statement-breakpoint
INSERT INTO "credit_balances" ("workspace_id", "used")
  SELECT "id", "character_count" FROM "workspaces" WHERE "character_count" <> 0;--> statement-breakpoint
INSERT INTO "billing_credit_periods" ("workspace_id", "next_reset_at")
  SELECT "id", "next_character_count_reset_at" FROM "workspaces" WHERE "next_character_count_reset_at" IS NOT NULL;--> statement-breakpoint
INSERT INTO "voice_add_edit_counts" ("workspace_id", "count")
  SELECT "id", "voice_add_edit_count" FROM "workspaces" WHERE "voice_add_edit_count" <> 0;--> statement-breakpoint
INSERT INTO "workspace_consents" ("workspace_id", "training_opt_out", "training_opt_out_at")
  SELECT "id", "training_opt_out", "training_opt_out_at" FROM "workspaces"
  WHERE "training_opt_out" OR "training_opt_out_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "ccpa_opt_out";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "geo_location";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "is_onboarding_completed";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "is_onboarding_checklist_completed";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "referral_link_code";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "accepted_bipa_terms";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "bipa_terms_accepted_at";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "terms_agreed_to";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "onboarding_survey";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "onboarding_checklist";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "analytics_consent";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "referred_by_code";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "signup_source";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "totp_secret";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "totp_enabled_at";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "totp_last_step";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "backup_code_hash";--> statement-breakpoint
ALTER TABLE "workspaces" DROP COLUMN "character_count";--> statement-breakpoint
ALTER TABLE "workspaces" DROP COLUMN "voice_add_edit_count";--> statement-breakpoint
ALTER TABLE "workspaces" DROP COLUMN "next_character_count_reset_at";--> statement-breakpoint
ALTER TABLE "workspaces" DROP COLUMN "training_opt_out";--> statement-breakpoint
ALTER TABLE "workspaces" DROP COLUMN "training_opt_out_at";