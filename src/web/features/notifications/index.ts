/** The Notifications screen: send, templates, history and channel settings. */
export { NotificationsPage } from './components/notifications-page';
