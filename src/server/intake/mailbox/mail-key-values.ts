/** `Key: value` pairs in a text: the keys a parent may write for each player field, and their values. */

export type Field = 'name' | 'firstName' | 'lastName' | 'birthDate' | 'division' | 'season' | 'guardianName' | 'guardianPhone';
export type FoundValues = Partial<Record<Field, string[]>>;

/**
 * The keys a parent may write, compared after normaliseKey (case, accents, apostrophes, dots, '#', '/'
 * and '-' do not matter: "D.O.B.", "Player's Name", "Parent/Guardian", "Phone #"). A bare "Name" is not
 * here: in a parent's mail it is as often their own name as the child's.
 */
const KEYS: ReadonlyMap<string, Field> = new Map(
  (
    [
      ['name', ['player', 'player name', 'players name', 'player full name', 'name of player', 'child', 'child name', 'childs name', 'name of child']],
      ['firstName', ['first name', 'player first name', 'players first name', 'given name']],
      ['lastName', ['last name', 'player last name', 'players last name', 'surname', 'family name']],
      ['birthDate', ['date of birth', 'dob', 'birth date', 'birthdate', 'birthday', 'born', 'player dob', 'player date of birth', 'players date of birth', 'player birth date']],
      ['division', ['division', 'div', 'player division']],
      ['season', ['season']],
      ['guardianName', ['guardian', 'guardian name', 'guardians name', 'parent', 'parent name', 'parents name', 'parent guardian', 'parent guardian name', 'parent or guardian', 'legal guardian']],
      ['guardianPhone', ['phone', 'phone number', 'phone no', 'telephone', 'tel', 'cell', 'cell phone', 'mobile', 'mobile phone', 'guardian phone', 'parent phone', 'contact phone', 'contact number']],
    ] as ReadonlyArray<readonly [Field, readonly string[]]>
  ).flatMap(([field, keys]) => keys.map((key) => [key, field] as const)),
);

const KEY_WORD = String.raw`[\p{L}#][\p{L}\p{M}'’.#]*`;
// Words of a key are joined by one space, a slash or a hyphen; a tab separates cells, so it ends a value.
const KEY_BODY = String.raw`[*_]*(${KEY_WORD}(?:(?: | ?/ ?|-)${KEY_WORD}){0,4})[*_]*[ \t]*[:：]`;
/**
 * Something shaped like a key: one to five words and a colon (ASCII or full-width), at the start of a
 * line (after an optional bullet) or after a separator (, ; | • tab, a spaced dash, two spaces), so
 * "Player: Jane Doe, DOB: 2015-03-02 | Division: AA" is three pairs and a colon in the middle of a
 * sentence is not a key. Every key-shaped match ends the value before it, known or not
 * ("Coach: Smith" is not part of a name).
 */
const KEY_SHAPE = new RegExp(String.raw`(?<=^|[,;|•\t]|\s[-–—]\s|\s{2})\s*(?:[-*•·]\s+)?${KEY_BODY}`, 'gu');
/** A key right at a given position (sticky), used to split values at known keys after a plain space. */
const KEY_HERE = new RegExp(KEY_BODY, 'uy');

function normaliseKey(key: string): string {
  return key
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’.#]/g, '')
    .replace(/[\s/-]+/g, ' ')
    .trim();
}

/**
 * Every known key's values in order of appearance, each trimmed of separators and markdown emphasis.
 * Inside a known key's value, a known key after a plain space starts the next pair ("Player: Jane Doe
 * Division: AA"); in a line with no known key first, it does not, so "Regarding last season: we moved"
 * is prose, not a season. A known key that ends its line takes the next non-blank line as its value, as
 * form notifications and HTML tables with a row per label write it ("Player Name:" / "Jane Doe"),
 * unless that line is a key itself.
 */
export function readKeyValues(text: string): FoundValues {
  const found: FoundValues = {};
  const lines = text.split('\n');
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    const keys = [...line.matchAll(KEY_SHAPE)];
    for (const [position, match] of keys.entries()) {
      const field = KEYS.get(normaliseKey(match[1] ?? ''));
      if (!field) continue;
      const next = keys[position + 1];
      const value = line.slice(match.index + match[0].length, next?.index ?? line.length);
      if (next || /[^\s*_]/.test(value)) {
        addValue(found, field, value);
        continue;
      }
      // One blank line may sit between a label and its value, as HTML paragraphs turn out.
      const below = lines[at + 1]?.trim() === '' ? at + 2 : at + 1;
      if (below >= lines.length || lines[below]?.trim() === '' || startsWithKey(lines[below] ?? '')) continue;
      addValue(found, field, lines[below] ?? '');
      at = below;
    }
  }
  return found;
}

/** The line opens with a key, known or not: "Division:" under "Player:" is not the player's name. */
function startsWithKey(line: string): boolean {
  const [first] = line.matchAll(KEY_SHAPE);
  return first !== undefined && line.slice(0, first.index).trim() === '';
}

function addValue(found: FoundValues, field: Field, text: string): void {
  let current = field;
  let rest = text;
  for (;;) {
    const next = findKnownKey(rest);
    const value = rest
      .slice(0, next?.at ?? rest.length)
      .replace(/^[\s*_]+/, '')
      .replace(/[\s,;|•*_–—-]+$/, '');
    if (value !== '') (found[current] ??= []).push(value);
    if (!next) return;
    current = next.field;
    rest = rest.slice(next.end);
  }
}

/** The first known key after a space in a value, where it starts and where its colon ends. */
function findKnownKey(text: string): { field: Field; at: number; end: number } | undefined {
  for (const start of text.matchAll(/(?<=\s)[*_]*[\p{L}#]/gu)) {
    KEY_HERE.lastIndex = start.index;
    const key = KEY_HERE.exec(text);
    const field = key ? KEYS.get(normaliseKey(key[1] ?? '')) : undefined;
    if (key && field) return { field, at: start.index, end: start.index + key[0].length };
  }
  return undefined;
}

/** The text holds a known key anywhere a key may stand. */
export function hasKnownKey(text: string): boolean {
  return [...text.matchAll(KEY_SHAPE)].some((match) => KEYS.has(normaliseKey(match[1] ?? '')));
}
