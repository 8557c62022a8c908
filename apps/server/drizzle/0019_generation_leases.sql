ALTER TABLE "concurrency_slots" ADD COLUMN "charge_id" text;--> statement-breakpoint
CREATE INDEX "concurrency_slots_expires_idx" ON "concurrency_slots" USING btree ("expires_at");