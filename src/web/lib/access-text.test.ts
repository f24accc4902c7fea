import { describe, expect, it } from 'vitest';
import { divisionsText, principalText } from './access-text';

describe('divisionsText', () => {
  it('says All divisions for no limit, else the divisions in league order', () => {
    expect(divisionsText([])).toBe('All divisions');
    expect(divisionsText(null)).toBe('All divisions');
    expect(divisionsText(['A', 'AAA'])).toBe('AAA, A');
  });
});

describe('principalText', () => {
  const person = { kind: 'user', userId: 'u1', name: 'Dana Lee', email: 'dana@example.org', twoFactorEnabled: false, twoFactorSetupRequired: false } as const;

  it('shows the name and role, and the divisions when limited', () => {
    expect(principalText({ ...person, role: 'moderator', divisions: null })).toEqual({ name: 'Dana Lee', detail: 'Moderator' });
    expect(principalText({ ...person, role: 'viewer', divisions: ['AA'] })).toEqual({ name: 'Dana Lee', detail: 'Viewer · AA' });
  });

  it('names the shared password as such', () => {
    expect(
      principalText({ kind: 'shared', userId: null, name: 'Shared password', email: null, role: 'admin', divisions: null, twoFactorEnabled: false, twoFactorSetupRequired: false }),
    ).toEqual({ name: 'Shared password', detail: 'Acts as an admin' });
  });
});
