CREATE TABLE "season_breakdown" (
	"season_id" text NOT NULL,
	"division" text NOT NULL,
	"complete" boolean NOT NULL,
	"birth_certificate_status" text NOT NULL,
	"residency_status" text NOT NULL,
	"medical_status" text NOT NULL,
	"waiver_status" text NOT NULL,
	"registered_month" date NOT NULL,
	"completed_month" date,
	"slot" smallint NOT NULL,
	"players" integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "season_breakdown_group_slot_uq" ON "season_breakdown" USING btree ("season_id","division","complete","birth_certificate_status","residency_status","medical_status","waiver_status","registered_month",coalesce("completed_month", 'infinity'::date),"slot");--> statement-breakpoint
-- Hand-written below (docs/decisions/032-incremental-season-report-breakdown.md): season_breakdown's backfill,
-- and the registration triggers of season_totals (migration 0004) made to keep it as well. drizzle-kit knows
-- nothing of these; tests/support/report-consistency.ts groups the registrations and compares.
--
-- No registration is written from here to the end of the migration's transaction (writers wait, readers do
-- not), so no write of another instance falls between the backfill's read and the triggers' new function.
LOCK TABLE "registrations" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
INSERT INTO "season_breakdown" (season_id, division, complete, birth_certificate_status, residency_status, medical_status, waiver_status,
  registered_month, completed_month, slot, players)
SELECT season_id, division, complete_types = 4, birth_certificate_status, residency_status, medical_status, waiver_status,
  date_trunc('month', registered_at AT TIME ZONE 'UTC')::date, date_trunc('month', completed_at AT TIME ZONE 'UTC')::date, 0, count(*)::int
FROM "registrations"
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
--> statement-breakpoint
-- Adds the difference a statement made to registrations (new rows counted in, old rows counted out) to this
-- session's slot (pg_backend_pid() % 8) of season_totals, then of season_breakdown, each in key order.
--
-- The three triggers name different transition tables (an insert has no old rows, a delete no new ones), and
-- a statement naming a table its trigger lacks fails: each branch only copies its rows into the two arrays,
-- and one pair of statements, over the rows signed +1 (new) and −1 (old), does the rest for all three.
--
-- Totals first, and an update locks the totals row of every season and division whose breakdown it changes,
-- even when no total changed (a status going from processing to missing): a breakdown row of a season,
-- division and slot is then only ever written by the transaction that holds that totals row, so no writer
-- waits on a breakdown row, and the breakdown adds no lock order of its own (two transactions each holding a
-- row the other wants) to the totals'.
--
-- A breakdown row of this slot that reaches zero is deleted (its ctid, returned by the upsert, while the
-- row is still locked): groups come and go as statuses change, and the report reads every row of a season.
CREATE OR REPLACE FUNCTION "registrations_totals_after_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  added "registrations"[] := '{}';
  removed "registrations"[] := '{}';
  emptied tid[];
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT coalesce(array_agg(n), '{}') INTO added FROM new_registrations n;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT coalesce(array_agg(o), '{}') INTO removed FROM old_registrations o;
  END IF;
  -- A statement that wrote no registration (an upsert that found one) changes nothing.
  IF cardinality(added) = 0 AND cardinality(removed) = 0 THEN
    RETURN NULL;
  END IF;

  WITH signed AS (
    SELECT r.*, 1 AS sign FROM unnest(added) r
    UNION ALL
    SELECT r.*, -1 FROM unnest(removed) r
  ),
  grouped AS (
    SELECT s.season_id, s.division, s.complete_types = 4 AS complete, s.birth_certificate_status, s.residency_status, s.medical_status,
      s.waiver_status, date_trunc('month', s.registered_at AT TIME ZONE 'UTC')::date AS registered_month,
      date_trunc('month', s.completed_at AT TIME ZONE 'UTC')::date AS completed_month, sum(s.sign)::int AS players
    FROM signed s
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    HAVING sum(s.sign) <> 0
  )
  INSERT INTO "season_totals" AS t (season_id, division, slot, players, complete_players, pending_players, live_documents, pending_documents)
  SELECT s.season_id, s.division, (pg_backend_pid() % 8)::smallint, sum(s.sign)::int, sum(s.sign * (s.complete_types = 4)::int)::int,
    sum(s.sign * (s.pending_types > 0)::int)::int, sum(s.sign * s.live_documents)::int, sum(s.sign * s.pending_documents)::int
  FROM signed s
  GROUP BY s.season_id, s.division
  HAVING sum(s.sign) <> 0 OR sum(s.sign * (s.complete_types = 4)::int) <> 0 OR sum(s.sign * (s.pending_types > 0)::int) <> 0
    OR sum(s.sign * s.live_documents) <> 0 OR sum(s.sign * s.pending_documents) <> 0
    -- A season and division whose breakdown changes: its totals row is locked (by adding zeros) before any
    -- of its breakdown rows.
    OR (s.season_id, s.division) IN (SELECT g.season_id, g.division FROM grouped g)
  ORDER BY s.season_id, s.division
  ON CONFLICT (season_id, division, slot) DO UPDATE SET
    players = t.players + excluded.players,
    complete_players = t.complete_players + excluded.complete_players,
    pending_players = t.pending_players + excluded.pending_players,
    live_documents = t.live_documents + excluded.live_documents,
    pending_documents = t.pending_documents + excluded.pending_documents;

  WITH signed AS (
    SELECT r.*, 1 AS sign FROM unnest(added) r
    UNION ALL
    SELECT r.*, -1 FROM unnest(removed) r
  ),
  written AS (
    INSERT INTO "season_breakdown" AS b (season_id, division, complete, birth_certificate_status, residency_status, medical_status,
      waiver_status, registered_month, completed_month, slot, players)
    SELECT s.season_id, s.division, s.complete_types = 4, s.birth_certificate_status, s.residency_status, s.medical_status, s.waiver_status,
      date_trunc('month', s.registered_at AT TIME ZONE 'UTC')::date, date_trunc('month', s.completed_at AT TIME ZONE 'UTC')::date,
      (pg_backend_pid() % 8)::smallint, sum(s.sign)::int
    FROM signed s
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    HAVING sum(s.sign) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    ON CONFLICT (season_id, division, complete, birth_certificate_status, residency_status, medical_status, waiver_status,
      registered_month, (coalesce(completed_month, 'infinity'::date)), slot)
      DO UPDATE SET players = b.players + excluded.players
    RETURNING b.ctid AS row_id, b.players
  )
  SELECT array_agg(w.row_id) FILTER (WHERE w.players = 0) INTO emptied FROM written w;

  IF emptied IS NOT NULL THEN
    DELETE FROM "season_breakdown" WHERE ctid = ANY (emptied) AND players = 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- TRUNCATE fires no row or transition-table trigger: the totals and the breakdown of an emptied table are emptied with it.
CREATE OR REPLACE FUNCTION "registrations_totals_after_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "season_totals";
  DELETE FROM "season_breakdown";
  RETURN NULL;
END $$;
