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

describe('sharedReads', () => {
  it('runs identical reads made while one is running once, and gives every caller its answer', async () => {
    const reads = sharedReads<string, string>();
    const source = controlledRead();
    const first = reads.read('stats:fall-2025', source.run);
    const second = reads.read('stats:fall-2025', source.run);
    expect(source.started()).toBe(1);
    expect(reads.inFlight).toBe(1);
    source.pending[0]?.resolve('figures');
    await expect(Promise.all([first, second])).resolves.toEqual(['figures', 'figures']);
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

  it('gives a failure to every caller that shared the read, and lets the next one try again', async () => {
    const reads = sharedReads<string, string>();
    const source = controlledRead();
    const first = reads.read('k', source.run);
    const second = reads.read('k', source.run);
    source.pending[0]?.reject(new Error('database went away'));
    await expect(first).rejects.toThrow('database went away');
    await expect(second).rejects.toThrow('database went away');
    const third = reads.read('k', source.run);
    expect(source.started()).toBe(2);
    source.pending[1]?.resolve('back');
    await expect(third).resolves.toBe('back');
  });
});
