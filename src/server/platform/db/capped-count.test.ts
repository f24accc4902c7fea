import { describe, expect, it } from 'vitest';
import { planRows, totalBesidePage } from './capped-count';

describe('totalBesidePage', () => {
  const page = (n: number) => ({ limit: 50, offset: (n - 1) * 50 });
  const estimate = (total: number) => ({ total, isEstimate: true });

  it('keeps an exact count as it is', () => {
    expect(totalBesidePage({ total: 120, isEstimate: false }, page(1), 50)).toEqual({ total: 120, isEstimate: false });
    expect(totalBesidePage({ total: 0, isEstimate: false }, page(1), 0)).toEqual({ total: 0, isEstimate: false });
  });

  it('keeps an estimate the page agrees with', () => {
    expect(totalBesidePage(estimate(12_437), page(1), 50)).toEqual({ total: 12_437, isEstimate: true });
    expect(totalBesidePage(estimate(12_437), page(30), 50)).toEqual({ total: 12_437, isEstimate: true });
  });

  it('makes the total exact on the last page, which is not full', () => {
    expect(totalBesidePage(estimate(12_437), page(41), 7)).toEqual({ total: 2_007, isEstimate: false });
    // Past the cap as well as under the estimate.
    expect(totalBesidePage(estimate(1_500), page(60), 1)).toEqual({ total: 2_951, isEstimate: false });
  });

  it('raises an estimate below the rows up to a full page, and still calls it one', () => {
    expect(totalBesidePage(estimate(1_001), page(40), 50)).toEqual({ total: 2_000, isEstimate: true });
  });

  it('lowers an estimate past an empty page to the rows before it', () => {
    expect(totalBesidePage(estimate(12_437), page(100), 0)).toEqual({ total: 4_950, isEstimate: true });
    // An estimate already below them stays as it is.
    expect(totalBesidePage(estimate(12_437), page(400), 0)).toEqual({ total: 12_437, isEstimate: true });
  });
});

describe('planRows', () => {
  it("reads the top node's rows from an explain answer, parsed or as text, and nothing from anything else", () => {
    const plan = [{ Plan: { 'Node Type': 'Seq Scan', 'Plan Rows': 12436.6 } }];
    expect(planRows({ rows: [{ 'QUERY PLAN': plan }] })).toBe(12_437);
    expect(planRows({ rows: [{ 'QUERY PLAN': JSON.stringify(plan) }] })).toBe(12_437);
    expect(planRows({ rows: [] })).toBeUndefined();
    expect(planRows({ rows: [{ 'QUERY PLAN': [{ Plan: {} }] }] })).toBeUndefined();
  });
});
