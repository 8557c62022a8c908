ALTER TABLE "voice_samples" ADD COLUMN "remove_background_noise" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "voice_samples" ADD COLUMN "trim_start_ms" integer;--> statement-breakpoint
ALTER TABLE "voice_samples" ADD COLUMN "trim_end_ms" integer;--> statement-breakpoint
ALTER TABLE "voice_samples" ADD COLUMN "speaker_separation" jsonb;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "verification_failures" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "verification_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "captcha_text" text;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "captcha_issued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "manual_verification_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "fine_tuning_progress" real;