import { describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '../../../contract';
import { permissionCheck } from '@/lib/session-api';
import { checkIntervalMinutes, describeMailboxStats, formatAttachmentCount, formatDateTime, mailboxControls, notConnectedNote } from './mailbox-figures';

describe('checkIntervalMinutes', () => {
  it('turns the interval into whole minutes, rounded', () => {
    expect(checkIntervalMinutes(60_000)).toBe(1);
    expect(checkIntervalMinutes(150_000)).toBe(3);
    expect(checkIntervalMinutes(89_000)).toBe(1);
  });

  it('uses 300000 ms (5 minutes) when the interval is absent', () => {
    expect(checkIntervalMinutes(undefined)).toBe(5);
    expect(checkIntervalMinutes(null)).toBe(5);
    expect(checkIntervalMinutes(0)).toBe(5);
  });
});

describe('describeMailboxStats', () => {
  it('gives success and error rates as rounded percentages of received', () => {
    expect(describeMailboxStats({ received: 3, processed: 2, failed: 1, totalAttachments: 7 })).toEqual({
      received: 3,
      processed: 2,
      failed: 1,
      successRate: 67,
      errorRate: 33,
      averageAttachments: 2,
    });
  });

  it('shows 0% and 0 attachments with no mail, never NaN', () => {
    expect(describeMailboxStats({ received: 0, processed: 0, failed: 0, totalAttachments: 0 })).toEqual({
      received: 0,
      processed: 0,
      failed: 0,
      successRate: 0,
      errorRate: 0,
      averageAttachments: 0,
    });
  });

  it('does not count pending mail in either rate', () => {
    const figures = describeMailboxStats({ received: 4, processed: 1, failed: 1, totalAttachments: 10 });
    expect([figures.successRate, figures.errorRate, figures.averageAttachments]).toEqual([25, 25, 3]);
  });
});

describe('formatAttachmentCount', () => {
  it('says attachment in the singular only for one', () => {
    expect(formatAttachmentCount(0)).toBe('0 attachments');
    expect(formatAttachmentCount(1)).toBe('1 attachment');
    expect(formatAttachmentCount(12)).toBe('12 attachments');
  });
});

describe('formatDateTime', () => {
  it('keeps a value that is not a date as it came', () => {
    expect(formatDateTime('yesterday')).toBe('yesterday');
  });

  it('formats a date with its day and time', () => {
    expect(formatDateTime('2025-03-03T10:04:00Z')).toMatch(/2025/);
  });
});

describe('mailboxControls', () => {
  it('gives an admin Start, Stop and Check Now, a moderator Check Now, a viewer none', () => {
    expect(mailboxControls(permissionCheck(ROLE_PERMISSIONS.admin))).toEqual({ schedule: true, check: true });
    expect(mailboxControls(permissionCheck(ROLE_PERMISSIONS.moderator))).toEqual({ schedule: false, check: true });
    expect(mailboxControls(permissionCheck(ROLE_PERMISSIONS.viewer))).toEqual({ schedule: false, check: false });
  });
});

describe('notConnectedNote', () => {
  it('names only the controls the role has, and is absent when it has none', () => {
    expect(notConnectedNote({ schedule: true, check: true })).toBe('Start and Check Now are available once the mailbox is connected.');
    expect(notConnectedNote({ schedule: false, check: true })).toBe('Check Now is available once the mailbox is connected.');
    expect(notConnectedNote({ schedule: true, check: false })).toBe('Start is available once the mailbox is connected.');
    expect(notConnectedNote({ schedule: false, check: false })).toBeNull();
  });
});
