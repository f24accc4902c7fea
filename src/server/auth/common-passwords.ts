import { readFileSync } from 'node:fs';

/**
 * The 10,000 most common passwords (SecLists, MIT; see THIRD_PARTY.md), lower-cased. Read on first use: a
 * server that never sets a password never holds the list in memory.
 */
let list: ReadonlySet<string> | undefined;
function commonPasswords(): ReadonlySet<string> {
  list ??= new Set(
    readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line.length > 0),
  );
  return list;
}

/** Digits and symbols people put around a common word to meet a length rule ('password1234', '!!sunshine2024'). */
const DECORATION = /^[\d\W_]*(.*?)[\d\W_]*$/u;

/** The shortest listed run of digits or symbols that counts as the start of a common one. */
const MIN_LISTED_RUN = 6;

/** The shortest piece that repeats to make the whole ('abc123abc123' → 'abc123'), or the whole. */
function repeatedUnit(text: string): string {
  for (let size = 1; size <= text.length / 2; size++) {
    if (text.length % size === 0 && text.slice(0, size).repeat(text.length / size) === text) return text.slice(0, size);
  }
  return text;
}

/**
 * Whether a password is one of the most common ones, ignoring letter case: the word itself, the word with
 * digits or symbols added before or after it, or the word repeated. Minimum length is the contract's rule; this
 * catches the long passwords that are still among the first any attacker tries.
 */
export function isCommonPassword(candidate: string): boolean {
  const known = commonPasswords();
  const lower = candidate.trim().toLowerCase();
  const unit = repeatedUnit(lower);
  for (const text of new Set([lower, unit])) {
    if (known.has(text)) return true;
    const core = DECORATION.exec(text)?.[1] ?? '';
    if (core.length > 0 && known.has(core)) return true;
    // Digits and symbols only: a listed run ('123456789') with more of the same added after it.
    if (core.length === 0) {
      for (let end = text.length - 1; end >= MIN_LISTED_RUN; end--) if (known.has(text.slice(0, end))) return true;
    }
  }
  return false;
}
