ALTER TABLE "kb_chunks" ADD COLUMN "embedding" real[];--> statement-breakpoint
ALTER TABLE "kb_documents" ADD COLUMN "embedding_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "kb_documents" ADD COLUMN "embedding_model" text;--> statement-breakpoint
ALTER TABLE "kb_documents" ADD COLUMN "embedding_error" text;