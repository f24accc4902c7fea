DROP INDEX "documents_status_idx";--> statement-breakpoint
DROP INDEX "notification_history_created_at_idx";--> statement-breakpoint
CREATE INDEX "documents_status_uploaded_idx" ON "documents" USING btree ("status","uploaded_at","id");--> statement-breakpoint
CREATE INDEX "notification_history_created_at_idx" ON "notification_history" USING btree ("created_at","id");--> statement-breakpoint
-- Hand-written below: an insert statement that wrote no registration (an upsert of a registration that
-- exists, as every upload of a registered player makes) returns at once. Its statement, planned afresh on
-- every call, otherwise ran to refresh no registration, about 3.5 ms per upload on the embedded database.
CREATE OR REPLACE FUNCTION "registrations_summary_after_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_registrations) THEN
    RETURN NULL;
  END IF;
  EXECUTE 'SELECT registration_summary_refresh(array_agg(n.player_id), array_agg(n.season_id))
    FROM new_registrations n
    JOIN players p ON p.id = n.player_id
    WHERE EXISTS (SELECT 1 FROM players cp JOIN documents d ON d.player_id = cp.id WHERE cp.child_key = p.child_key)
       OR EXISTS (SELECT 1 FROM season_requirements q WHERE q.season_id = n.season_id AND NOT q.required)';
  RETURN NULL;
END $$;
