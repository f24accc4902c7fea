import { describe, expect, it } from 'vitest';
import { completionTone } from './status-tones';

describe('completionTone', () => {
  it.each([
    [100, 'complete'],
    [99, 'high'],
    [75, 'high'],
    [74, 'medium'],
    [50, 'medium'],
    [49, 'low'],
    [25, 'low'],
    [24, 'critical'],
    [0, 'critical'],
  ] as const)('%d%% is %s', (percent, tone) => {
    expect(completionTone(percent)).toBe(tone);
  });
});
