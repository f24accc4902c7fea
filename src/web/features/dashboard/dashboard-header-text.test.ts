import { describe, expect, it } from 'vitest';
import { notificationsBadgeText, notificationsLabel, playersSearchHref } from './dashboard-header-text';

describe('notificationsLabel', () => {
  it('names the count of documents awaiting review', () => {
    expect(notificationsLabel(12)).toBe('Notifications: 12 documents awaiting review');
    expect(notificationsLabel(1)).toBe('Notifications: 1 document awaiting review');
    expect(notificationsLabel(0)).toBe('Notifications: no documents awaiting review');
    expect(notificationsLabel(undefined)).toBe('Notifications');
  });
});

describe('notificationsBadgeText', () => {
  it('is hidden at 0 and while loading, and caps at 999+', () => {
    expect(notificationsBadgeText(0)).toBeNull();
    expect(notificationsBadgeText(undefined)).toBeNull();
    expect(notificationsBadgeText(12)).toBe('12');
    expect(notificationsBadgeText(1000)).toBe('999+');
  });
});

describe('playersSearchHref', () => {
  it('sends the trimmed text to the Players screen, encoded', () => {
    expect(playersSearchHref('  Ava Smith ')).toBe('/players?search=Ava%20Smith');
    expect(playersSearchHref('O’Brien & co')).toBe('/players?search=O%E2%80%99Brien%20%26%20co');
    expect(playersSearchHref('   ')).toBe('/players');
  });
});
