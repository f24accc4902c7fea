-- Searches ignore case and accents ("Martinez" finds "Martínez", "MARTÍNEZ" finds "martinez"; decision 024).
-- Both extensions are trusted: the database owner, or any user with CREATE on the database, may install them.
-- IF NOT EXISTS: where an operator installed them beforehand, that is kept.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- The one folding every search uses, on the stored text and on the pattern alike: accents off, then lowercase
-- (lower() after unaccent, so letters that lose their accent lowercase under any collation). IMMUTABLE so
-- indexes may hold it; true as long as the unaccent rules are not edited (a REINDEX follows such an edit).
-- The SQL-standard body is resolved once, here: the dictionary and the functions are bound by their ids, so
-- the function gives the same answer whatever the search_path of the session calling it.
CREATE FUNCTION "clearbase_fold"(text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN lower(unaccent('unaccent'::regdictionary, $1));
--> statement-breakpoint
-- The registration's search text, folded, one entry per line (a search is one line, so no match spans two):
-- 'first last', 'last, first', 'last first', the player id, and the guardian's name and e-mail (left out when
-- the player has none).
CREATE OR REPLACE FUNCTION "registrations_copy_player_names"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  player_first_name text;
  player_last_name text;
  player_guardian_name text;
  player_guardian_email text;
BEGIN
  SELECT p.first_name, p.last_name, p.guardian_name, p.guardian_email
    INTO player_first_name, player_last_name, player_guardian_name, player_guardian_email
    FROM "players" p WHERE p.id = NEW.player_id;
  IF FOUND THEN
    NEW.first_name := player_first_name;
    NEW.last_name := player_last_name;
  END IF;
  NEW.search_text := clearbase_fold(concat_ws(E'\n',
    NEW.first_name || ' ' || NEW.last_name,
    NEW.last_name || ', ' || NEW.first_name,
    NEW.last_name || ' ' || NEW.first_name,
    NEW.player_id,
    player_guardian_name,
    player_guardian_email));
  RETURN NEW;
END $$;
--> statement-breakpoint
-- A player's registrations follow a change of the guardian too (a newer submission refreshes the contact):
-- rewriting the names fires the trigger above, which reads the player again.
DROP TRIGGER "players_names_update" ON "players";
--> statement-breakpoint
CREATE TRIGGER "players_names_update" AFTER UPDATE OF first_name, last_name, guardian_name, guardian_email ON "players"
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
    OR OLD.guardian_name IS DISTINCT FROM NEW.guardian_name OR OLD.guardian_email IS DISTINCT FROM NEW.guardian_email)
  EXECUTE FUNCTION players_names_after_update();
--> statement-breakpoint
-- Back-fill: every registration's search text anew (naming first_name in the SET list fires the trigger).
UPDATE "registrations" SET first_name = first_name;
--> statement-breakpoint
-- Trigram indexes (GIN), so LIKE '%…%' on the folded text reads the rows that contain the pattern's trigrams
-- instead of every row: the registrations' search text (Players), the players' folded 'first last' and the
-- documents' folded file names (Documents). Staff accounts are few: their search reads them all.
CREATE INDEX "registrations_search_text_trgm_idx" ON "registrations" USING gin ("search_text" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "players_name_fold_trgm_idx" ON "players" USING gin (clearbase_fold("first_name" || ' ' || "last_name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "documents_file_name_fold_trgm_idx" ON "documents" USING gin (clearbase_fold("original_filename") gin_trgm_ops);
