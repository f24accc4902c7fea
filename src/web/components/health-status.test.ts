import { describe, expect, it } from 'vitest';
import { healthStatusLabel, healthStatusTone } from './health-status';

describe('healthStatusLabel', () => {
  it('labels ok as Operational, warning as Degraded and error as Error', () => {
    expect(healthStatusLabel('ok')).toBe('Operational');
    expect(healthStatusLabel('warning')).toBe('Degraded');
    expect(healthStatusLabel('error')).toBe('Error');
  });

  it('labels anything else as Error', () => {
    expect(healthStatusLabel('unknown')).toBe('Error');
    expect(healthStatusLabel(undefined)).toBe('Error');
  });
});

describe('healthStatusTone', () => {
  it('colours ok green, warning amber and everything else red', () => {
    expect(healthStatusTone('ok')).toBe('success');
    expect(healthStatusTone('warning')).toBe('warning');
    expect(healthStatusTone('down')).toBe('destructive');
  });
});
