ALTER TABLE "history_items" ADD COLUMN "dialogue" jsonb;--> statement-breakpoint
ALTER TABLE "history_items" ADD COLUMN "share_link_id" text;--> statement-breakpoint
ALTER TABLE "history_items" ADD COLUMN "shared_by_user_id" text;--> statement-breakpoint
ALTER TABLE "history_items" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "public_user_name" text;--> statement-breakpoint
ALTER TABLE "history_items" ADD CONSTRAINT "history_items_shared_by_user_id_users_id_fk" FOREIGN KEY ("shared_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "history_items_search_idx" ON "history_items" USING gin ("search_vector");--> statement-breakpoint
ALTER TABLE "history_items" ADD CONSTRAINT "history_items_share_link_id_unique" UNIQUE("share_link_id");