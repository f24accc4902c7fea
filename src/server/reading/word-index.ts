import { createHmac, hkdfSync } from 'node:crypto';
import { MIN_CONTENT_SEARCH_WORD } from '../../contract';

/**
 * A search inside documents that never keeps a document's words in the clear: each distinct word of its text
 * is stored as a keyed hash (HMAC-SHA-256 under a key derived from the master key, first 16 hex digits), and a
 * search hashes its words the same way and asks for documents holding every hash. Whole words only, folded like
 * the other search boxes (accents off, lowercase); a word shorter than MIN_CONTENT_SEARCH_WORD is not indexed.
 * 64 bits per word: across a document's few hundred words a false match is out of reach.
 */
export type WordKey = Buffer;

export function wordKey(masterKey: Buffer): WordKey {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'clearbase document words', 32));
}

/** The words of `text` as a search sees them: folded, split on anything that is not a letter or digit, distinct. */
export function wordsOf(text: string): string[] {
  const foldedText = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const words = new Set<string>();
  for (const word of foldedText.split(/[^\p{L}\p{N}]+/u)) {
    if (word.length >= MIN_CONTENT_SEARCH_WORD && word.length <= 64) words.add(word);
  }
  return [...words];
}

const hashOf = (key: WordKey, word: string): string => createHmac('sha256', key).update(word).digest('hex').slice(0, 16);

/** The stored index of a document's text. */
export function wordHashes(key: WordKey, text: string): string[] {
  return wordsOf(text).map((word) => hashOf(key, word));
}

/** The hashes a search for `query` must all find; empty when no word of it is long enough to look up. */
export function searchHashes(key: WordKey, query: string): string[] {
  return wordsOf(query).map((word) => hashOf(key, word));
}
