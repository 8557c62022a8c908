ALTER TABLE "voices" ALTER COLUMN "workspace_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "built_in" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "built_in_hash" text;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "preview_text" text;--> statement-breakpoint
ALTER TABLE "voices" ADD CONSTRAINT "voices_owner_check" CHECK (("voices"."workspace_id" is null) = "voices"."built_in");