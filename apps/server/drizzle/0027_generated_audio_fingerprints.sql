CREATE TABLE "generated_audio" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "generated_audio_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"workspace_id" text,
	"source" text NOT NULL,
	"subject" text,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "generated_audio_landmarks" (
	"audio_id" integer NOT NULL,
	"hash" integer NOT NULL,
	"frame" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "generated_audio" ADD CONSTRAINT "generated_audio_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generated_audio_landmarks" ADD CONSTRAINT "generated_audio_landmarks_audio_id_generated_audio_id_fk" FOREIGN KEY ("audio_id") REFERENCES "public"."generated_audio"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generated_audio_workspace_idx" ON "generated_audio" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "generated_audio_subject_idx" ON "generated_audio" USING btree ("subject");--> statement-breakpoint
CREATE INDEX "generated_audio_landmarks_hash_idx" ON "generated_audio_landmarks" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "generated_audio_landmarks_audio_idx" ON "generated_audio_landmarks" USING btree ("audio_id");