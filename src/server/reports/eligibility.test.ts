import { describe, expect, it } from 'vitest';
import { dayText } from './eligibility';

describe('eligibility packet', () => {
  it('names days with short English month names', () => {
    expect(dayText('2025-09-02')).toBe('2 Sep 2025');
    expect(dayText('2026-12-31')).toBe('31 Dec 2026');
  });
});
