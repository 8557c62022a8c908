ALTER TABLE "concurrency_slots" ADD COLUMN "settled" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "concurrency_slots" ADD COLUMN "within_slot_id" text;