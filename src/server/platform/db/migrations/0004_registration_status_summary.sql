CREATE TABLE "season_totals" (
	"season_id" text NOT NULL,
	"division" text NOT NULL,
	"slot" smallint NOT NULL,
	"players" integer DEFAULT 0 NOT NULL,
	"complete_players" integer DEFAULT 0 NOT NULL,
	"pending_players" integer DEFAULT 0 NOT NULL,
	"live_documents" integer DEFAULT 0 NOT NULL,
	"pending_documents" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "season_totals_season_id_division_slot_pk" PRIMARY KEY("season_id","division","slot")
);
--> statement-breakpoint
DROP INDEX "registrations_season_division_idx";--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "first_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "last_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "birth_certificate_status" text DEFAULT 'missing' NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "residency_status" text DEFAULT 'missing' NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "medical_status" text DEFAULT 'missing' NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "waiver_status" text DEFAULT 'missing' NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "complete_types" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "pending_types" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "live_documents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "pending_documents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "registrations_season_name_idx" ON "registrations" USING btree ("season_id","last_name","first_name","player_id");--> statement-breakpoint
CREATE INDEX "registrations_season_division_name_idx" ON "registrations" USING btree ("season_id","division","last_name","first_name","player_id");--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_birth_certificate_status_ck" CHECK ("registrations"."birth_certificate_status" in ('complete', 'missing', 'pending', 'processing'));--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_residency_status_ck" CHECK ("registrations"."residency_status" in ('complete', 'missing', 'pending', 'processing'));--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_medical_status_ck" CHECK ("registrations"."medical_status" in ('complete', 'missing', 'pending', 'processing'));--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_waiver_status_ck" CHECK ("registrations"."waiver_status" in ('complete', 'missing', 'pending', 'processing'));
--> statement-breakpoint
-- Hand-written below (docs/decisions/012-registration-status-summary.md): the triggers that keep the
-- registrations summary columns above and season_totals right, and their backfill. drizzle-kit knows
-- nothing of these; the tests recompute every summary from the documents and compare
-- (tests/support/report-consistency.ts).
--
-- Recomputes the summary of the given (player, season) registrations from their documents. The rule:
-- per type, complete when a live document of it is verified, else pending, else processing, else missing
-- (none, only rejected ones, or purged). A document with no type counts for no type. Purged documents
-- count for nothing.
--
-- plan_cache_mode: PL/pgSQL keeps a statement's plan for the session. A plan made while the tables were
-- small (the first batches of a bulk seed, all in one transaction) scans every document, and stays in use
-- while the table grows to 200,000 rows. Planned afresh on each call, it looks each registration up by index.
CREATE FUNCTION "registration_summary_refresh"(player_ids text[], season_ids text[]) RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
BEGIN
  -- Lock the rows first, in key order, then read the documents in a statement of its own: under READ
  -- COMMITTED that statement's snapshot is taken after the lock is granted, so it sees the documents of a
  -- concurrent transaction that held the lock and committed; computing before locking would let that
  -- transaction's summary be overwritten by one that never saw its document.
  PERFORM 1
    FROM "registrations" r
    JOIN (SELECT DISTINCT k.player_id, k.season_id FROM unnest(player_ids, season_ids) AS k(player_id, season_id)) k
      ON r.player_id = k.player_id AND r.season_id = k.season_id
    ORDER BY r.player_id, r.season_id
    FOR NO KEY UPDATE OF r;

  UPDATE "registrations" r SET
      birth_certificate_status = s.birth_certificate_status,
      residency_status = s.residency_status,
      medical_status = s.medical_status,
      waiver_status = s.waiver_status,
      complete_types = s.complete_types,
      pending_types = s.pending_types,
      completed_at = s.completed_at,
      live_documents = s.live_documents,
      pending_documents = s.pending_documents
    FROM (
      SELECT k.player_id, k.season_id,
        (ARRAY['complete', 'pending', 'processing', 'missing'])[t.birth_certificate] AS birth_certificate_status,
        (ARRAY['complete', 'pending', 'processing', 'missing'])[t.residency] AS residency_status,
        (ARRAY['complete', 'pending', 'processing', 'missing'])[t.medical] AS medical_status,
        (ARRAY['complete', 'pending', 'processing', 'missing'])[t.waiver] AS waiver_status,
        ((t.birth_certificate = 1)::int + (t.residency = 1)::int + (t.medical = 1)::int + (t.waiver = 1)::int)::smallint AS complete_types,
        ((t.birth_certificate = 2)::int + (t.residency = 2)::int + (t.medical = 2)::int + (t.waiver = 2)::int)::smallint AS pending_types,
        CASE WHEN t.birth_certificate = 1 AND t.residency = 1 AND t.medical = 1 AND t.waiver = 1
          THEN greatest(t.birth_certificate_at, t.residency_at, t.medical_at, t.waiver_at) END AS completed_at,
        t.live_documents,
        t.pending_documents
      FROM (SELECT DISTINCT k.player_id, k.season_id FROM unnest(player_ids, season_ids) AS k(player_id, season_id)) k
      -- An aggregate per registration: never flattened into a join, so it stays one index look-up of that
      -- player's season documents (documents_season_player_type_idx) whatever the planner thinks of the table.
      CROSS JOIN LATERAL (
        -- Per type, the best status as a rank: 1 verified, 2 pending, 3 processing, 4 nothing (missing).
        SELECT
          coalesce(min(d.rank) FILTER (WHERE d.doc_type = 'birth_certificate'), 4) AS birth_certificate,
          coalesce(min(d.rank) FILTER (WHERE d.doc_type = 'residency'), 4) AS residency,
          coalesce(min(d.rank) FILTER (WHERE d.doc_type = 'medical'), 4) AS medical,
          coalesce(min(d.rank) FILTER (WHERE d.doc_type = 'waiver'), 4) AS waiver,
          -- Per type, when it first had a verified document (review time; upload time when none is recorded).
          min(d.verified_at) FILTER (WHERE d.doc_type = 'birth_certificate') AS birth_certificate_at,
          min(d.verified_at) FILTER (WHERE d.doc_type = 'residency') AS residency_at,
          min(d.verified_at) FILTER (WHERE d.doc_type = 'medical') AS medical_at,
          min(d.verified_at) FILTER (WHERE d.doc_type = 'waiver') AS waiver_at,
          (count(*) FILTER (WHERE d.status <> 'rejected'))::int AS live_documents,
          (count(*) FILTER (WHERE d.status = 'pending'))::int AS pending_documents
        FROM (
          SELECT doc.doc_type, doc.status,
            CASE doc.status WHEN 'verified' THEN 1 WHEN 'pending' THEN 2 WHEN 'processing' THEN 3 END AS rank,
            CASE WHEN doc.status = 'verified' THEN coalesce(doc.reviewed_at, doc.uploaded_at) END AS verified_at
          FROM "documents" doc
          WHERE doc.season_id = k.season_id AND doc.player_id = k.player_id AND doc.purged_at IS NULL
        ) d
      ) t
    ) s
    WHERE r.player_id = s.player_id AND r.season_id = s.season_id
      AND (r.birth_certificate_status, r.residency_status, r.medical_status, r.waiver_status,
           r.complete_types, r.pending_types, r.completed_at, r.live_documents, r.pending_documents)
          IS DISTINCT FROM
          (s.birth_certificate_status, s.residency_status, s.medical_status, s.waiver_status,
           s.complete_types, s.pending_types, s.completed_at, s.live_documents, s.pending_documents);
END $$;
--> statement-breakpoint
-- Statement-level triggers with transition tables: a bulk insert of 500 documents recomputes each of its
-- registrations once, in one statement, instead of once per document.
CREATE FUNCTION "documents_summary_after_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM registration_summary_refresh(array_agg(k.player_id), array_agg(k.season_id))
    FROM (SELECT DISTINCT player_id, season_id FROM new_documents) k;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Only rows whose status, type, player, season or purge changed: the pipeline's other updates (storage
-- key, hash, stored path) cost one join of the statement's transition tables and nothing else.
CREATE FUNCTION "documents_summary_after_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM registration_summary_refresh(array_agg(k.player_id), array_agg(k.season_id))
    FROM (
      SELECT o.player_id, o.season_id, n.player_id AS new_player_id, n.season_id AS new_season_id
        FROM old_documents o JOIN new_documents n ON n.id = o.id
        WHERE (o.status, o.doc_type, o.player_id, o.season_id, o.purged_at IS NULL)
              IS DISTINCT FROM (n.status, n.doc_type, n.player_id, n.season_id, n.purged_at IS NULL)
    ) changed
    CROSS JOIN LATERAL (VALUES (changed.player_id, changed.season_id), (changed.new_player_id, changed.new_season_id)) AS k(player_id, season_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "documents_summary_after_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM registration_summary_refresh(array_agg(k.player_id), array_agg(k.season_id))
    FROM (SELECT DISTINCT player_id, season_id FROM old_documents) k;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "documents_summary_insert" AFTER INSERT ON "documents"
  REFERENCING NEW TABLE AS new_documents FOR EACH STATEMENT EXECUTE FUNCTION documents_summary_after_insert();
--> statement-breakpoint
CREATE TRIGGER "documents_summary_update" AFTER UPDATE ON "documents"
  REFERENCING OLD TABLE AS old_documents NEW TABLE AS new_documents FOR EACH STATEMENT EXECUTE FUNCTION documents_summary_after_update();
--> statement-breakpoint
CREATE TRIGGER "documents_summary_delete" AFTER DELETE ON "documents"
  REFERENCING OLD TABLE AS old_documents FOR EACH STATEMENT EXECUTE FUNCTION documents_summary_after_delete();
--> statement-breakpoint
-- A registration takes its player's names when it is written (whatever the caller passed), and the
-- lowercased text the report's search looks in: 'first last', 'last, first', 'last first' and the player id,
-- one per line (a search is one line, so no match spans two). A stored lowercase text matched with LIKE
-- against a lowercased pattern costs a sixth of ILIKE over the names joined at query time.
CREATE FUNCTION "registrations_copy_player_names"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  player_first_name text;
  player_last_name text;
BEGIN
  SELECT p.first_name, p.last_name INTO player_first_name, player_last_name FROM "players" p WHERE p.id = NEW.player_id;
  IF FOUND THEN
    NEW.first_name := player_first_name;
    NEW.last_name := player_last_name;
  END IF;
  NEW.search_text := lower(concat_ws(E'\n',
    NEW.first_name || ' ' || NEW.last_name,
    NEW.last_name || ', ' || NEW.first_name,
    NEW.last_name || ' ' || NEW.first_name,
    NEW.player_id));
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "registrations_player_names" BEFORE INSERT OR UPDATE OF player_id, first_name, last_name ON "registrations"
  FOR EACH ROW EXECUTE FUNCTION registrations_copy_player_names();
--> statement-breakpoint
-- A registration written after some of its documents (documents first, then the registration) starts from them.
-- EXECUTE plans the statement on every call: a cached plan of this parameterless statement, made while
-- documents was small, would go on scanning the whole table for every batch of a bulk seed.
CREATE FUNCTION "registrations_summary_after_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'SELECT registration_summary_refresh(array_agg(n.player_id), array_agg(n.season_id))
    FROM new_registrations n
    WHERE EXISTS (SELECT 1 FROM documents d WHERE d.season_id = n.season_id AND d.player_id = n.player_id)';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "registrations_summary_insert" AFTER INSERT ON "registrations"
  REFERENCING NEW TABLE AS new_registrations FOR EACH STATEMENT EXECUTE FUNCTION registrations_summary_after_insert();
--> statement-breakpoint
-- Names are not expected to change (the player id is derived from them), but if one does, the copies follow.
CREATE FUNCTION "players_names_after_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "registrations" SET first_name = NEW.first_name, last_name = NEW.last_name WHERE player_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "players_names_update" AFTER UPDATE OF first_name, last_name ON "players"
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name)
  EXECUTE FUNCTION players_names_after_update();
--> statement-breakpoint
-- Backfill: the names and search text (the trigger above fills both), then every registration's summary.
UPDATE "registrations" SET first_name = '';
--> statement-breakpoint
SELECT registration_summary_refresh(array_agg(player_id), array_agg(season_id)) FROM "registrations";
--> statement-breakpoint
-- season_totals: every season and division's sums of the summary, from the backfilled registrations, then
-- kept by the registration triggers below (each change adds its difference; decision 012).
INSERT INTO "season_totals" (season_id, division, slot, players, complete_players, pending_players, live_documents, pending_documents)
SELECT season_id, division, 0, count(*)::int, (count(*) FILTER (WHERE complete_types = 4))::int,
  (count(*) FILTER (WHERE pending_types > 0))::int, sum(live_documents)::int, sum(pending_documents)::int
FROM "registrations" GROUP BY season_id, division;
--> statement-breakpoint
-- Adds the difference a statement made to registrations (new rows counted in, old rows counted out) to the
-- totals row of this session's slot, in key order so two writers lock rows in the same order.
CREATE FUNCTION "registrations_totals_after_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "season_totals" AS t (season_id, division, slot, players, complete_players, pending_players, live_documents, pending_documents)
    SELECT n.season_id, n.division, (pg_backend_pid() % 8)::smallint, count(*)::int, (count(*) FILTER (WHERE n.complete_types = 4))::int,
      (count(*) FILTER (WHERE n.pending_types > 0))::int, sum(n.live_documents)::int, sum(n.pending_documents)::int
    FROM new_registrations n
    GROUP BY n.season_id, n.division
    ORDER BY n.season_id, n.division
    ON CONFLICT (season_id, division, slot) DO UPDATE SET
      players = t.players + excluded.players,
      complete_players = t.complete_players + excluded.complete_players,
      pending_players = t.pending_players + excluded.pending_players,
      live_documents = t.live_documents + excluded.live_documents,
      pending_documents = t.pending_documents + excluded.pending_documents;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "season_totals" AS t (season_id, division, slot, players, complete_players, pending_players, live_documents, pending_documents)
    SELECT o.season_id, o.division, (pg_backend_pid() % 8)::smallint, -count(*)::int, -(count(*) FILTER (WHERE o.complete_types = 4))::int,
      -(count(*) FILTER (WHERE o.pending_types > 0))::int, -sum(o.live_documents)::int, -sum(o.pending_documents)::int
    FROM old_registrations o
    GROUP BY o.season_id, o.division
    ORDER BY o.season_id, o.division
    ON CONFLICT (season_id, division, slot) DO UPDATE SET
      players = t.players + excluded.players,
      complete_players = t.complete_players + excluded.complete_players,
      pending_players = t.pending_players + excluded.pending_players,
      live_documents = t.live_documents + excluded.live_documents,
      pending_documents = t.pending_documents + excluded.pending_documents;
  ELSE
    INSERT INTO "season_totals" AS t (season_id, division, slot, players, complete_players, pending_players, live_documents, pending_documents)
    SELECT d.season_id, d.division, (pg_backend_pid() % 8)::smallint, sum(d.players)::int, sum(d.complete_players)::int,
      sum(d.pending_players)::int, sum(d.live_documents)::int, sum(d.pending_documents)::int
    FROM (
      SELECT n.season_id, n.division, 1 AS players, (n.complete_types = 4)::int AS complete_players,
        (n.pending_types > 0)::int AS pending_players, n.live_documents, n.pending_documents
      FROM new_registrations n
      UNION ALL
      SELECT o.season_id, o.division, -1, -(o.complete_types = 4)::int, -(o.pending_types > 0)::int, -o.live_documents, -o.pending_documents
      FROM old_registrations o
    ) d
    GROUP BY d.season_id, d.division
    HAVING sum(d.players) <> 0 OR sum(d.complete_players) <> 0 OR sum(d.pending_players) <> 0
      OR sum(d.live_documents) <> 0 OR sum(d.pending_documents) <> 0
    ORDER BY d.season_id, d.division
    ON CONFLICT (season_id, division, slot) DO UPDATE SET
      players = t.players + excluded.players,
      complete_players = t.complete_players + excluded.complete_players,
      pending_players = t.pending_players + excluded.pending_players,
      live_documents = t.live_documents + excluded.live_documents,
      pending_documents = t.pending_documents + excluded.pending_documents;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "registrations_totals_insert" AFTER INSERT ON "registrations"
  REFERENCING NEW TABLE AS new_registrations FOR EACH STATEMENT EXECUTE FUNCTION registrations_totals_after_change();
--> statement-breakpoint
CREATE TRIGGER "registrations_totals_update" AFTER UPDATE ON "registrations"
  REFERENCING OLD TABLE AS old_registrations NEW TABLE AS new_registrations FOR EACH STATEMENT EXECUTE FUNCTION registrations_totals_after_change();
--> statement-breakpoint
CREATE TRIGGER "registrations_totals_delete" AFTER DELETE ON "registrations"
  REFERENCING OLD TABLE AS old_registrations FOR EACH STATEMENT EXECUTE FUNCTION registrations_totals_after_change();
--> statement-breakpoint
-- TRUNCATE fires no row or transition-table trigger: the totals of an emptied table are emptied with it.
CREATE FUNCTION "registrations_totals_after_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "season_totals";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "registrations_totals_truncate" AFTER TRUNCATE ON "registrations"
  FOR EACH STATEMENT EXECUTE FUNCTION registrations_totals_after_truncate();
