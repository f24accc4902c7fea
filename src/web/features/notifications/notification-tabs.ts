import type { Can } from '@/lib/session-api';

/** The Notifications tabs, in the order they are shown; ?tab= names one. */
export const NOTIFICATION_TABS = ['send', 'templates', 'history', 'settings'] as const;
export type NotificationTab = (typeof NOTIFICATION_TABS)[number];

/**
 * The tabs the signed-in role sees. Send (with its quick actions) is only an action, so a role that cannot send
 * ('notifications.send') does not get it; Templates, History and Settings are there to read for every role, and
 * their controls follow 'notifications.configure'.
 */
export function notificationTabs(can: Can): NotificationTab[] {
  return NOTIFICATION_TABS.filter((tab) => tab !== 'send' || can('notifications.send'));
}

/** The tab to show: the one asked for when the role has it, else the role's first (which the URL leaves out). */
export function chooseNotificationTab(requested: string | null, tabs: readonly NotificationTab[]): NotificationTab {
  return tabs.find((tab) => tab === requested) ?? tabs[0] ?? 'history';
}
