CREATE INDEX "documents_submission_idx" ON "documents" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "documents_staged_key_idx" ON "documents" USING btree ("staged_key") WHERE "documents"."staged_key" is not null;--> statement-breakpoint
CREATE INDEX "documents_retain_until_idx" ON "documents" USING btree ("retain_until") WHERE "documents"."purged_at" is null;