import { describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '../../../contract';
import { permissionCheck } from '@/lib/session-api';
import { chooseNotificationTab, notificationTabs } from './notification-tabs';

describe('notificationTabs', () => {
  it('gives admins and moderators every tab, Send first', () => {
    expect(notificationTabs(permissionCheck(ROLE_PERMISSIONS.admin))).toEqual(['send', 'templates', 'history', 'settings']);
    expect(notificationTabs(permissionCheck(ROLE_PERMISSIONS.moderator))).toEqual(['send', 'templates', 'history', 'settings']);
  });

  it('gives a viewer the tabs to read, without Send', () => {
    expect(notificationTabs(permissionCheck(ROLE_PERMISSIONS.viewer))).toEqual(['templates', 'history', 'settings']);
  });
});

describe('chooseNotificationTab', () => {
  const viewerTabs = notificationTabs(permissionCheck(ROLE_PERMISSIONS.viewer));
  const moderatorTabs = notificationTabs(permissionCheck(ROLE_PERMISSIONS.moderator));

  it('shows the tab asked for when the role has it', () => {
    expect(chooseNotificationTab('history', viewerTabs)).toBe('history');
    expect(chooseNotificationTab('send', moderatorTabs)).toBe('send');
  });

  it("falls back to the role's first tab for a missing, unknown or unavailable one", () => {
    expect(chooseNotificationTab(null, moderatorTabs)).toBe('send');
    expect(chooseNotificationTab('nonsense', moderatorTabs)).toBe('send');
    expect(chooseNotificationTab('send', viewerTabs)).toBe('templates');
    expect(chooseNotificationTab(null, viewerTabs)).toBe('templates');
  });
});
