import { describe, expect, it } from 'vitest';
import { addDays, neededDocuments, planReminders, reasonsDue, upcomingReminders } from './reminder-plan';

const rules = { daysBeforeDeadline: [14, 7, 2], daysAfterRejection: [3] };
const player = (id: string, email: string, extra: Partial<Parameters<typeof reasonsDue>[0]> = {}) => ({
  playerId: id,
  guardianEmail: email,
  missing: ['medical' as const],
  expiring: [],
  rejections: [],
  ...extra,
});

describe('automatic reminder plan', () => {
  it('moves dates by whole days across months', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
  });

  it('is due on the days before the deadline, and after a rejection of a type still missing', () => {
    expect(reasonsDue(player('a', 'x@example.org'), '2026-12-08', '2026-12-15', rules)).toEqual(['deadline:7']);
    expect(reasonsDue(player('a', 'x@example.org'), '2026-12-09', '2026-12-15', rules)).toEqual([]);
    const rejected = player('a', 'x@example.org', { rejections: [{ docType: 'medical', on: '2026-12-05' }] });
    expect(reasonsDue(rejected, '2026-12-08', '2026-12-15', rules)).toEqual(['deadline:7', 'rejection:3']);
    const resent = player('a', 'x@example.org', { missing: ['waiver'], rejections: [{ docType: 'medical', on: '2026-12-06' }] });
    expect(reasonsDue(resent, '2026-12-09', '2026-12-15', rules)).toEqual([]);
    expect(reasonsDue(player('a', 'x@example.org', { missing: [] }), '2026-12-08', '2026-12-15', rules)).toEqual([]);
  });

  it('reminds a family whose approval expires soon before the deadline too, though nothing is missing', () => {
    const expiring = player('a', 'x@example.org', { missing: [], expiring: [{ docType: 'medical', on: '2027-01-03' }] });
    expect(reasonsDue(expiring, '2026-12-08', '2026-12-15', rules)).toEqual(['deadline:7']);
    // A rejection reminds only about a type still missing.
    expect(reasonsDue({ ...expiring, rejections: [{ docType: 'medical', on: '2026-12-06' }] }, '2026-12-09', '2026-12-15', rules)).toEqual([]);
  });

  it('asks for the missing and expired types, and the lapsing ones of a registration expiring by the day given', () => {
    const statuses = { birth_certificate: 'missing', residency: 'expired', medical: 'complete', waiver: 'complete' } as const;
    const rules = { until: '2026-09-30', lapsingTypes: ['medical' as const] };
    expect(neededDocuments(statuses, '2026-09-01', rules)).toEqual({
      missing: ['birth_certificate', 'residency'],
      expiring: [{ docType: 'medical', on: '2026-09-01' }],
    });
    expect(neededDocuments(statuses, '2026-10-01', rules).expiring).toEqual([]);
    expect(neededDocuments(statuses, null, rules).expiring).toEqual([]);
    expect(neededDocuments({ ...statuses, medical: 'pending' }, '2026-09-01', rules).expiring).toEqual([]);
  });

  it('makes one reminder a family, by its address in any case', () => {
    const plan = planReminders([player('a', 'Sam@Example.org'), player('b', 'sam@example.org '), player('c', 'kim@example.org')], '2026-12-01', '2026-12-15', rules);
    expect(plan.map((family) => [family.recipient, family.players.map((p) => p.playerId), family.reason])).toEqual([
      ['sam@example.org', ['a', 'b'], 'deadline:14'],
      ['kim@example.org', ['c'], 'deadline:14'],
    ]);
  });

  it("lists the coming days before the deadline, today's until its sweep has sent them", () => {
    expect(upcomingReminders(new Date('2026-12-08T08:00:00Z'), '2026-12-15', rules)).toEqual([
      { on: '2026-12-08', reason: '7 days before the deadline' },
      { on: '2026-12-13', reason: '2 days before the deadline' },
    ]);
    expect(upcomingReminders(new Date('2026-12-08T10:00:00Z'), '2026-12-15', rules).map((u) => u.on)).toEqual(['2026-12-13']);
  });
});
