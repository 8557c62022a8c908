CREATE TABLE "audio_native_page_loads" (
	"project_id" text NOT NULL,
	"day" text NOT NULL,
	"page_url" text NOT NULL,
	"loads" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "audio_native_page_loads_project_id_page_url_day_pk" PRIMARY KEY("project_id","page_url","day")
);
--> statement-breakpoint
ALTER TABLE "audio_native_projects" ADD COLUMN "page_pinned" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "audio_native_page_loads" ADD CONSTRAINT "audio_native_page_loads_project_id_audio_native_projects_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."audio_native_projects"("project_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audio_native_sessions_day_idx" ON "audio_native_sessions" USING btree ("day");