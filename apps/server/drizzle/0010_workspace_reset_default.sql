ALTER TABLE "workspaces" ALTER COLUMN "next_character_count_reset_at" SET DEFAULT now() + interval '1 month';--> statement-breakpoint
-- Workspaces made before the default: their credits reset a month after they were made, then monthly.
UPDATE "workspaces" SET "next_character_count_reset_at" = "created_at" + interval '1 month' WHERE "next_character_count_reset_at" IS NULL;
