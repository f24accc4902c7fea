ALTER TABLE "documents" ADD COLUMN "scan_first_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "scan_failed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "documents_scan_failed_idx" ON "documents" USING btree ("scan_failed_at") WHERE "documents"."scan_failed_at" is not null;