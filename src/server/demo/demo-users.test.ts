import { describe, expect, it } from 'vitest';
import { USER_ROLES } from '../../contract';
import { data } from './demo-data.fixture';

describe('generateDemoData: staff users', () => {
  it('creates three staff users, one per role, in different statuses, one who never logged in', () => {
    expect(data.users.map((u) => u.role).sort()).toEqual([...USER_ROLES].sort());
    expect(new Set(data.users.map((u) => u.status))).toEqual(new Set(['active', 'inactive', 'pending']));
    expect(data.users.filter((u) => u.lastLoginAt === null)).toHaveLength(1);
  });
});
