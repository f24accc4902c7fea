import { describe, expect, it } from 'vitest';
import { sharedReads } from './shared-reads';

/** A read that resolves or rejects when the test says so, counting how often it was started. */
function controlledRead() {
  let started = 0;
  const pending: Array<{ resolve: (value: string) => void; reject: (error: Error) => void }> = [];
  const run = () => {
    started += 1;
    return new Promise<string>((resolve, reject) => pending.push({ resolve, reject }));
  };
  return { run, pending, started: () => started };
}

/** Lets every settled promise's handlers run. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('sharedReads', () => {
  it('gives callers that arrive while a read runs one further read, started once it settles, which they share', async () => {
    const reads = sharedReads<string, string>();
    const source = controlledRead();
    const first = reads.read('stats:fall-2025', source.run);
    const second = reads.read('stats:fall-2025', source.run);
    const third = reads.read('stats:fall-2025', source.run);
    expect(source.started()).toBe(1);
    expect(reads.inFlight).toBe(1);
    // The first read may have begun before the others' callers wrote: they do not take its answer.
    source.pending[0]?.resolve('before the approval');
    await expect(first).resolves.toBe('before the approval');
    await flush();
    expect(source.started()).toBe(2);
    source.pending[1]?.resolve('after the approval');
    await expect(Promise.all([second, third])).resolves.toEqual(['after the approval', 'after the approval']);
    expect(reads.inFlight).toBe(0);
  });

  it('a caller arriving while the further read runs waits for the one after it', async () => {
    const reads = sharedReads<string, string>();
    const source = controlledRead();
    const first = reads.read('k', source.run);
    const second = reads.read('k', source.run);
    source.pending[0]?.resolve('one');
    await first;
    await flush();
    const third = reads.read('k', source.run);
    expect(source.started()).toBe(2);
    source.pending[1]?.resolve('two');
    await expect(second).resolves.toBe('two');
    await flush();
    expect(source.started()).toBe(3);
    source.pending[2]?.resolve('three');
    await expect(third).resolves.toBe('three');
    expect(reads.inFlight).toBe(0);
  });

  it('keeps nothing once a read settles: the next caller reads afresh', async () => {
    const reads = sharedReads<string, string>();
    const source = controlledRead();
    const first = reads.read('k', source.run);
    source.pending[0]?.resolve('old');
    await first;
    const second = reads.read('k', source.run);
    expect(source.started()).toBe(2);
    source.pending[1]?.resolve('new');
    await expect(second).resolves.toBe('new');
  });

  it('never shares between different keys', () => {
    const reads = sharedReads<string, string>();
    const source = controlledRead();
    void reads.read('stats:fall-2025', source.run);
    void reads.read('stats:spring-2026', source.run);
    expect(source.started()).toBe(2);
    expect(reads.inFlight).toBe(2);
  });

  it('a failed read fails its own caller only; those waiting behind it read afresh, and the next one tries again', async () => {
    const reads = sharedReads<string, string>();
    const source = controlledRead();
    const first = reads.read('k', source.run);
    const second = reads.read('k', source.run);
    source.pending[0]?.reject(new Error('database went away'));
    await expect(first).rejects.toThrow('database went away');
    await flush();
    source.pending[1]?.reject(new Error('still away'));
    await expect(second).rejects.toThrow('still away');
    const third = reads.read('k', source.run);
    expect(source.started()).toBe(3);
    source.pending[2]?.resolve('back');
    await expect(third).resolves.toBe('back');
    expect(reads.inFlight).toBe(0);
  });
});
