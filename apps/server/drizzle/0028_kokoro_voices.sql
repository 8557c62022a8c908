ALTER TABLE "generated_voices" ADD COLUMN "kokoro_voice" text;--> statement-breakpoint
ALTER TABLE "voices" ADD COLUMN "kokoro_voice" text;