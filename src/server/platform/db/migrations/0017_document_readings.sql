CREATE TABLE "document_readings" (
	"document_id" uuid PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"text" jsonb,
	"word_hashes" text[] DEFAULT '{}'::text[] NOT NULL,
	"extracted" jsonb,
	"readable" boolean,
	"method" text,
	"seconds" real,
	"pages" smallint,
	"failure" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_readings_state_ck" CHECK ("document_readings"."state" in ('waiting', 'done', 'off', 'failed', 'removed'))
);
--> statement-breakpoint
ALTER TABLE "document_readings" ADD CONSTRAINT "document_readings_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_readings_word_hashes_idx" ON "document_readings" USING gin ("word_hashes");