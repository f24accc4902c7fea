CREATE TABLE "requirement_day" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "requirement_day_one_row_ck" CHECK ("requirement_day"."id")
);
--> statement-breakpoint
CREATE TABLE "season_requirements" (
	"season_id" text NOT NULL,
	"doc_type" text NOT NULL,
	"required" boolean DEFAULT true NOT NULL,
	"lasts" text NOT NULL,
	"months" smallint,
	"documents" smallint DEFAULT 1 NOT NULL,
	"groups" text[] DEFAULT '{}'::text[] NOT NULL,
	"dated_from" date,
	"dated_to" date,
	CONSTRAINT "season_requirements_season_id_doc_type_pk" PRIMARY KEY("season_id","doc_type"),
	CONSTRAINT "season_requirements_doc_type_ck" CHECK ("season_requirements"."doc_type" in ('birth_certificate', 'residency', 'medical', 'waiver')),
	CONSTRAINT "season_requirements_lasts_ck" CHECK ("season_requirements"."lasts" in ('season', 'months', 'forever')),
	CONSTRAINT "season_requirements_months_ck" CHECK (("season_requirements"."lasts" = 'months') = ("season_requirements"."months" is not null) and ("season_requirements"."months" is null or "season_requirements"."months" between 1 and 60)),
	CONSTRAINT "season_requirements_documents_ck" CHECK ("season_requirements"."documents" between 1 and 5)
);
--> statement-breakpoint
ALTER TABLE "registrations" DROP CONSTRAINT "registrations_birth_certificate_status_ck";--> statement-breakpoint
ALTER TABLE "registrations" DROP CONSTRAINT "registrations_residency_status_ck";--> statement-breakpoint
ALTER TABLE "registrations" DROP CONSTRAINT "registrations_medical_status_ck";--> statement-breakpoint
ALTER TABLE "registrations" DROP CONSTRAINT "registrations_waiver_status_ck";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "fact_birth_date" date;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "document_date" date;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "residency_group" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "file_removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "players" ADD COLUMN "child_key" text GENERATED ALWAYS AS (regexp_replace(id, '-[0-9]{4}-([0-9a-f]{8})$', '-\1')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "players" ADD COLUMN "birth_date_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "expires_on" date;--> statement-breakpoint
ALTER TABLE "seasons" ADD COLUMN "age_date" date;--> statement-breakpoint
ALTER TABLE "seasons" ADD COLUMN "division_ages" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "seasons" ADD COLUMN "remove_verified_birth_certificate_files_after_days" integer;--> statement-breakpoint
ALTER TABLE "season_requirements" ADD CONSTRAINT "season_requirements_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_player_type_idx" ON "documents" USING btree ("player_id","doc_type");--> statement-breakpoint
CREATE INDEX "players_child_key_idx" ON "players" USING btree ("child_key");--> statement-breakpoint
CREATE INDEX "registrations_season_expires_idx" ON "registrations" USING btree ("season_id","expires_on") WHERE "registrations"."expires_on" is not null;--> statement-breakpoint
CREATE INDEX "registrations_expires_idx" ON "registrations" USING btree ("expires_on") WHERE "registrations"."expires_on" is not null;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_birth_certificate_status_ck" CHECK ("registrations"."birth_certificate_status" in ('complete', 'missing', 'pending', 'processing', 'expired', 'not_required'));--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_residency_status_ck" CHECK ("registrations"."residency_status" in ('complete', 'missing', 'pending', 'processing', 'expired', 'not_required'));--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_medical_status_ck" CHECK ("registrations"."medical_status" in ('complete', 'missing', 'pending', 'processing', 'expired', 'not_required'));--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_waiver_status_ck" CHECK ("registrations"."waiver_status" in ('complete', 'missing', 'pending', 'processing', 'expired', 'not_required'));--> statement-breakpoint
-- Hand-written below (docs/decisions/030-requirement-rules.md): the season's default rules, the day the
-- summaries are judged on, and the registration summary computed from the rules. The rule engine in
-- src/server/requirements/rule-engine.ts states the same rules in TypeScript; tests/support/report-consistency.ts
-- recomputes every summary with it and the integration tests compare.
--
-- The day the summaries are judged on: an approval that lapses on a day stops counting once this reaches it.
-- The requirements-day job moves it forward from the server's clock and recomputes the registrations whose
-- approvals lapsed (registrations.expires_on).
INSERT INTO "requirement_day" ("id", "day") VALUES (true, current_date);
--> statement-breakpoint
-- Every season has its four rules, whatever wrote it: the defaults are birth certificate for good, medical
-- form 12 months from the exam, residency proof and waiver each season (DEFAULT_REQUIREMENT_RULES).
CREATE FUNCTION "season_requirements_defaults"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "season_requirements" (season_id, doc_type, required, lasts, months)
  VALUES (NEW.id, 'birth_certificate', true, 'forever', NULL),
         (NEW.id, 'residency', true, 'season', NULL),
         (NEW.id, 'medical', true, 'months', 12),
         (NEW.id, 'waiver', true, 'season', NULL)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "seasons_requirements_defaults" AFTER INSERT ON "seasons"
  FOR EACH ROW EXECUTE FUNCTION season_requirements_defaults();
--> statement-breakpoint
-- A new season counts league age on 31 August of its year (baseball) and gives its divisions the league's
-- usual ages (DEFAULT_DIVISION_AGES), unless whoever wrote it said otherwise.
CREATE FUNCTION "seasons_age_defaults"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.age_date := coalesce(NEW.age_date, make_date(NEW.year, 8, 31));
  IF NEW.division_ages = '{}'::jsonb THEN
    NEW.division_ages := '{"Peewee":{"min":4,"max":6},"A":{"min":7,"max":8},"AA":{"min":8,"max":10},"AAA":{"min":10,"max":12}}'::jsonb;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "seasons_age_defaults" BEFORE INSERT ON "seasons"
  FOR EACH ROW EXECUTE FUNCTION seasons_age_defaults();
--> statement-breakpoint
INSERT INTO "season_requirements" (season_id, doc_type, required, lasts, months)
SELECT s.id, r.doc_type, true, r.lasts, r.months
FROM "seasons" s
CROSS JOIN (VALUES ('birth_certificate', 'forever', NULL::smallint), ('residency', 'season', NULL), ('medical', 'months', 12), ('waiver', 'season', NULL)) AS r(doc_type, lasts, months);
--> statement-breakpoint
UPDATE "seasons" SET age_date = make_date(year, 8, 31),
  division_ages = '{"Peewee":{"min":4,"max":6},"A":{"min":7,"max":8},"AA":{"min":8,"max":10},"AAA":{"min":10,"max":12}}'::jsonb;
--> statement-breakpoint
-- The documents of a child that one season's rule for one type looks at on `judged` (the season's judging day),
-- each with what the rule makes of it: this season's documents of any status, and the verified ones of the
-- child's other seasons when the approval outlasts its season and was made by that day. `counts`: verified, dated inside the rule's window, in one of the rule's groups (when it
-- names groups). `until`: the day it stops counting (its date, or the day it was received when none was
-- recorded, plus the rule's months); null when it does not lapse. `unit`: what one approval is (the group, when
-- the rule names groups, so two documents of one group are one; else the document).
CREATE FUNCTION "requirement_documents"(child text, season text, rule "season_requirements", judged date)
RETURNS TABLE(status text, this_season boolean, counts boolean, until date, unit text, verified_at timestamptz)
LANGUAGE sql STABLE AS $$
  -- A purged document counts for nothing: it is read (status null, counts false) rather than filtered out, so
  -- no "purged_at IS NULL" condition invites the partial documents_retain_until_idx.
  SELECT CASE WHEN doc.purged_at IS NULL THEN doc.status END,
    doc.season_id = season,
    doc.purged_at IS NULL AND doc.status = 'verified'
      AND (rule.dated_from IS NULL OR doc.document_date >= rule.dated_from)
      AND (rule.dated_to IS NULL OR doc.document_date <= rule.dated_to)
      AND (cardinality(rule.groups) = 0 OR doc.residency_group = ANY (rule.groups)),
    CASE WHEN rule.lasts = 'months'
      THEN (coalesce(doc.document_date, (doc.uploaded_at AT TIME ZONE 'UTC')::date) + make_interval(months => rule.months))::date END,
    CASE WHEN cardinality(rule.groups) > 0 THEN doc.residency_group ELSE doc.id::text END,
    coalesce(doc.reviewed_at, doc.uploaded_at)
  FROM "players" dp
  -- Each of the child's player rows, then its documents of the type by documents_player_type_idx: OFFSET 0 keeps
  -- the season and status conditions out of that lookup, so the planner cannot turn it into a scan of every
  -- verified document (it would, while a bulk write's statistics still describe an empty table).
  CROSS JOIN LATERAL (
    SELECT d.* FROM "documents" d WHERE d.player_id = dp.id AND d.doc_type = rule.doc_type OFFSET 0
  ) doc
  WHERE dp.child_key = child
    AND (doc.season_id = season OR (rule.lasts <> 'season' AND doc.status = 'verified'
      AND (coalesce(doc.reviewed_at, doc.uploaded_at) AT TIME ZONE 'UTC')::date <= judged))
$$;
--> statement-breakpoint
-- Recomputes the summary of the given (player, season) registrations from the season's rules and the child's
-- documents, judged on requirement_day, or on the season's last day once it is over (a season that ended is
-- judged as it ended). Per type, by rank: not required; complete (at least `documents` approvals
-- count today); pending (this season has one waiting for review); processing; expired (an approval that would
-- count has lapsed); missing. complete_types counts the met types (complete or not required). completed_at:
-- while every type is met, when the last of them became met. expires_on: the first day a met type stops being
-- met, when that is within the season. live_documents and pending_documents count this season's documents of this player, as before.
CREATE OR REPLACE FUNCTION "registration_summary_refresh"(player_ids text[], season_ids text[]) RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  today date := coalesce((SELECT day FROM "requirement_day"), current_date);
BEGIN
  -- Lock the rows first, in key order, then read the documents in a statement of its own (decision 012).
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
      pending_documents = s.pending_documents,
      expires_on = s.expires_on
    FROM (
      SELECT t.player_id, t.season_id,
        coalesce(max(t.status) FILTER (WHERE t.doc_type = 'birth_certificate'), 'missing') AS birth_certificate_status,
        coalesce(max(t.status) FILTER (WHERE t.doc_type = 'residency'), 'missing') AS residency_status,
        coalesce(max(t.status) FILTER (WHERE t.doc_type = 'medical'), 'missing') AS medical_status,
        coalesce(max(t.status) FILTER (WHERE t.doc_type = 'waiver'), 'missing') AS waiver_status,
        (count(*) FILTER (WHERE t.status IN ('complete', 'not_required')))::smallint AS complete_types,
        (count(*) FILTER (WHERE t.status = 'pending'))::smallint AS pending_types,
        CASE WHEN count(*) FILTER (WHERE t.status IN ('complete', 'not_required')) = 4
          THEN coalesce(max(t.met_at), min(t.registered_at)) END AS completed_at,
        min(t.expires_on) AS expires_on,
        min(t.live_documents) AS live_documents,
        min(t.pending_documents) AS pending_documents
      FROM (
        SELECT k.player_id, k.season_id, k.registered_at, q.doc_type, c.live_documents, c.pending_documents,
          CASE WHEN NOT q.required THEN 'not_required'
               WHEN m.units >= q.documents THEN 'complete'
               WHEN a.pending THEN 'pending'
               WHEN a.processing THEN 'processing'
               WHEN a.lapsed THEN 'expired'
               ELSE 'missing' END AS status,
          CASE WHEN q.required AND m.units >= q.documents THEN m.met_at END AS met_at,
          CASE WHEN q.required AND m.units >= q.documents AND m.expires_on <= k.ends_on THEN m.expires_on END AS expires_on
        FROM (
          SELECT DISTINCT r.player_id, r.season_id, r.registered_at, p.child_key, se.ends_on, least(today, se.ends_on) AS judged
          FROM unnest(player_ids, season_ids) AS u(player_id, season_id)
          JOIN "registrations" r ON r.player_id = u.player_id AND r.season_id = u.season_id
          JOIN "players" p ON p.id = r.player_id
          JOIN "seasons" se ON se.id = r.season_id
        ) k
        -- This season's documents of this player: counted as before the rules (any type or none).
        -- (Purged ones are counted out in the aggregate, not filtered: see requirement_documents.)
        CROSS JOIN LATERAL (
          SELECT (count(*) FILTER (WHERE doc.status <> 'rejected' AND doc.purged_at IS NULL))::int AS live_documents,
                 (count(*) FILTER (WHERE doc.status = 'pending' AND doc.purged_at IS NULL))::int AS pending_documents
          FROM "documents" doc
          WHERE doc.season_id = k.season_id AND doc.player_id = k.player_id
        ) c
        JOIN "season_requirements" q ON q.season_id = k.season_id
        CROSS JOIN LATERAL (
          SELECT coalesce(bool_or(d.this_season AND d.status = 'pending'), false) AS pending,
                 coalesce(bool_or(d.this_season AND d.status = 'processing'), false) AS processing,
                 coalesce(bool_or(d.counts AND d.until <= k.judged), false) AS lapsed
          FROM requirement_documents(k.child_key, k.season_id, q, k.judged) d
        ) a
        -- The approvals that count today, one per unit: each unit counts until its latest document lapses
        -- (never, when one of them does not lapse) and has counted since its first verification. Met with
        -- `documents` units; then met since the `documents`-th earliest unit began, until the
        -- `documents`-th latest one lapses.
        CROSS JOIN LATERAL (
          SELECT count(*)::int AS units,
            (array_agg(g.until ORDER BY g.until DESC NULLS FIRST))[q.documents] AS expires_on,
            (array_agg(g.since ORDER BY g.since))[q.documents] AS met_at
          FROM (
            SELECT d.unit, CASE WHEN bool_or(d.until IS NULL) THEN NULL ELSE max(d.until) END AS until, min(d.verified_at) AS since
            -- OFFSET 0 keeps this filter out of the function's lookup: pushed down, "counts" would let the
            -- planner scan documents_status_idx for every verified document instead of the child's few.
            FROM (SELECT * FROM requirement_documents(k.child_key, k.season_id, q, k.judged) OFFSET 0) d
            WHERE d.counts AND (d.until IS NULL OR d.until > k.judged)
            GROUP BY d.unit
          ) g
        ) m
      ) t
      GROUP BY t.player_id, t.season_id
    ) s
    WHERE r.player_id = s.player_id AND r.season_id = s.season_id
      AND (r.birth_certificate_status, r.residency_status, r.medical_status, r.waiver_status,
           r.complete_types, r.pending_types, r.completed_at, r.live_documents, r.pending_documents, r.expires_on)
          IS DISTINCT FROM
          (s.birth_certificate_status, s.residency_status, s.medical_status, s.waiver_status,
           s.complete_types, s.pending_types, s.completed_at, s.live_documents, s.pending_documents, s.expires_on);
END $$;
--> statement-breakpoint
-- Every registration of the children of the given players, in every season: an approval that outlasts its
-- season counts in the child's other seasons, so a change to one document can change several summaries.
CREATE FUNCTION "registration_summary_refresh_children"(player_ids text[]) RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
BEGIN
  PERFORM registration_summary_refresh(array_agg(r.player_id), array_agg(r.season_id))
    FROM "registrations" r
    JOIN "players" p ON p.id = r.player_id
    WHERE p.child_key IN (SELECT cp.child_key FROM "players" cp WHERE cp.id = ANY (player_ids));
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "documents_summary_after_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM registration_summary_refresh_children(array_agg(DISTINCT player_id)) FROM new_documents;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Only rows whose status, type, player, season, purge, review time or recorded facts changed.
CREATE OR REPLACE FUNCTION "documents_summary_after_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM registration_summary_refresh_children(array_agg(DISTINCT k.player_id))
    FROM (
      SELECT o.player_id, n.player_id AS new_player_id
        FROM old_documents o JOIN new_documents n ON n.id = o.id
        WHERE (o.status, o.doc_type, o.player_id, o.season_id, o.purged_at IS NULL, o.reviewed_at, o.document_date, o.residency_group)
              IS DISTINCT FROM (n.status, n.doc_type, n.player_id, n.season_id, n.purged_at IS NULL, n.reviewed_at, n.document_date, n.residency_group)
    ) changed
    CROSS JOIN LATERAL (VALUES (changed.player_id), (changed.new_player_id)) AS k(player_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "documents_summary_after_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM registration_summary_refresh_children(array_agg(DISTINCT player_id)) FROM old_documents;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A registration written after documents of its child (this season's or approvals of another) starts from them.
CREATE OR REPLACE FUNCTION "registrations_summary_after_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'SELECT registration_summary_refresh(array_agg(n.player_id), array_agg(n.season_id))
    FROM new_registrations n
    JOIN players p ON p.id = n.player_id
    WHERE EXISTS (SELECT 1 FROM players cp JOIN documents d ON d.player_id = cp.id WHERE cp.child_key = p.child_key)
       OR EXISTS (SELECT 1 FROM season_requirements q WHERE q.season_id = n.season_id AND NOT q.required)';
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Changing a season's rules recomputes its registrations.
CREATE FUNCTION "season_requirements_after_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM registration_summary_refresh(array_agg(r.player_id), array_agg(r.season_id))
    FROM "registrations" r
    WHERE r.season_id IN (SELECT DISTINCT season_id FROM changed_requirements);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "season_requirements_insert" AFTER INSERT ON "season_requirements"
  REFERENCING NEW TABLE AS changed_requirements FOR EACH STATEMENT EXECUTE FUNCTION season_requirements_after_change();
--> statement-breakpoint
CREATE TRIGGER "season_requirements_update" AFTER UPDATE ON "season_requirements"
  REFERENCING NEW TABLE AS changed_requirements FOR EACH STATEMENT EXECUTE FUNCTION season_requirements_after_change();
--> statement-breakpoint
-- A season that ends on another day is judged on another day once it is over.
CREATE FUNCTION "seasons_end_after_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM registration_summary_refresh(array_agg(r.player_id), array_agg(r.season_id))
    FROM "registrations" r WHERE r.season_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "seasons_end_update" AFTER UPDATE OF ends_on ON "seasons"
  FOR EACH ROW WHEN (OLD.ends_on IS DISTINCT FROM NEW.ends_on) EXECUTE FUNCTION seasons_end_after_update();
--> statement-breakpoint
-- Backfill: every registration's summary under the default rules.
SELECT registration_summary_refresh(array_agg(player_id), array_agg(season_id)) FROM "registrations";
