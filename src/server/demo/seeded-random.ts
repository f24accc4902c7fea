/**
 * Seeded randomness for the demo. Everything random, uuids included, comes from one stream so a seed
 * replays exactly: the order of the draws is part of the output, so a change in what is drawn, or when,
 * changes every row after it.
 */

export interface Random {
  /** Uniform in [0, 1). */
  nextFloat(): number;
  /** Uniform integer in [min, max], both inclusive. */
  nextInt(min: number, max: number): number;
  rollChance(probability: number): boolean;
  pickOne<T>(items: readonly T[]): T;
  pickWeighted<T>(table: WeightedTable<T>): T;
  nextHex(length: number): string;
  /** A version-4 formatted uuid drawn from the stream: stable per seed, unlike crypto.randomUUID. */
  nextUuid(): string;
}

/** sfc32 (Chris Doty-Humphrey's small fast counter), seeded through splitmix32: tiny and good enough. */
export function createRandom(seed: number): Random {
  let seedState = seed >>> 0;
  const splitmix32 = (): number => {
    seedState = (seedState + 0x9e3779b9) >>> 0;
    let z = seedState;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix32();
  let b = splitmix32();
  let c = splitmix32();
  let d = splitmix32();
  const nextUint32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // The first outputs of a freshly seeded sfc32 are correlated with the seed; discard them.
  for (let i = 0; i < 12; i += 1) nextUint32();

  const nextFloat = () => nextUint32() / 4_294_967_296;
  // Reused buffers and native encoding: hashes and uuids are drawn ~600,000 times for a big demo, and
  // this way each is one flat string rather than a rope of pieces that the garbage collector must trace.
  const hexBuffer = Buffer.alloc(64);
  const nextHex = (length: number): string => {
    const bytes = Math.ceil(length / 2);
    if (bytes > hexBuffer.length) throw new RangeError(`nextHex supports up to ${hexBuffer.length * 2} digits`);
    for (let offset = 0; offset < bytes; offset += 4) hexBuffer.writeUInt32LE(nextUint32(), offset);
    const hex = hexBuffer.toString('hex', 0, bytes);
    return hex.length === length ? hex : hex.slice(0, length);
  };
  const uuidBuffer = Buffer.alloc(36);
  const nextUuid = (): string => {
    let position = 0;
    for (let word = 0; word < 4; word += 1) {
      let value = nextUint32();
      for (let nibble = 0; nibble < 8; nibble += 1) {
        if (position === 8 || position === 13 || position === 18 || position === 23) {
          uuidBuffer[position] = DASH;
          position += 1;
        }
        let digit = value & 15;
        value >>>= 4;
        if (position === 14) digit = 4; // version 4
        if (position === 19) digit = 8 | (digit & 3); // variant 10xx
        uuidBuffer[position] = HEX_DIGITS[digit] ?? DASH;
        position += 1;
      }
    }
    return uuidBuffer.toString('latin1');
  };
  return {
    nextFloat,
    nextInt: (min, max) => min + Math.floor(nextFloat() * (max - min + 1)),
    rollChance: (probability) => nextFloat() < probability,
    pickOne: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(nextFloat() * items.length)];
      if (item === undefined) throw new RangeError('pickOne needs a non-empty list');
      return item;
    },
    pickWeighted: <T>(table: WeightedTable<T>): T => {
      const target = nextFloat() * table.total;
      for (const entry of table.entries) if (target < entry.upTo) return entry.value;
      return table.last;
    },
    nextHex,
    nextUuid,
  };
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const DASH = 0x2d;

export interface WeightedTable<T> {
  entries: ReadonlyArray<{ value: T; upTo: number }>;
  total: number;
  last: T;
}

/** Precomputes cumulative weights once so each draw is a short scan, not a re-sum. */
export function buildWeightedTable<T>(weights: ReadonlyArray<readonly [T, number]>): WeightedTable<T> {
  let total = 0;
  const entries = weights.map(([value, weight]) => {
    total += weight;
    return { value, upTo: total };
  });
  const lastEntry = entries[entries.length - 1];
  if (!lastEntry || total <= 0) throw new RangeError('A weighted table needs a positive weight');
  return { entries, total, last: lastEntry.value };
}

export function shuffleInPlace<T>(random: Random, items: T[]): void {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = random.nextInt(0, i);
    const item = items[i] as T;
    items[i] = items[j] as T;
    items[j] = item;
  }
}

/** Removes and returns a random element in O(1) by swapping with the last one. */
export function takeRandom<T>(random: Random, items: T[]): T | undefined {
  if (items.length === 0) return undefined;
  const index = random.nextInt(0, items.length - 1);
  const item = items[index];
  const last = items.pop();
  if (index < items.length && last !== undefined) items[index] = last;
  return item;
}
