import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { searchHashes, wordHashes, wordKey, wordsOf } from './word-index';

describe('the word index of a document', () => {
  const key = wordKey(randomBytes(32));

  it('keeps distinct folded words of three letters or more', () => {
    expect(wordsOf('Name of child: José  MARTÍNEZ-López, born 12/09/2014 in Ōsaka.')).toEqual(['name', 'child', 'jose', 'martinez', 'lopez', 'born', '2014', 'osaka']);
  });

  it('finds a document by any of its words, whatever the case or accents of the search', () => {
    const stored = wordHashes(key, 'Certificate of live birth. Name of child: José Martínez');
    const search = searchHashes(key, 'martinez JOSE');
    expect(search).toHaveLength(2);
    expect(search.every((hash) => stored.includes(hash))).toBe(true);
    expect(searchHashes(key, 'Martin').every((hash) => stored.includes(hash))).toBe(false);
  });

  it('stores no word in the clear, and another installation’s key gives other hashes', () => {
    const stored = wordHashes(key, 'Martinez');
    expect(stored[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(stored.join(' ')).not.toContain('martinez');
    expect(wordHashes(wordKey(randomBytes(32)), 'Martinez')).not.toEqual(stored);
  });

  it('looks nothing up for words too short to index', () => {
    expect(searchHashes(key, 'a b 12')).toEqual([]);
  });
});
