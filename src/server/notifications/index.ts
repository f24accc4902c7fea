export { AUTOMATIC_REMINDER_TEMPLATE, DEFAULT_NOTIFICATION_TEMPLATES, UPLOAD_LINK_TEMPLATE } from './notification-defaults';
export { createReminderHandler, REMINDERS_QUEUE, scheduleReminders, sweepReminders, type ReminderSweepDeps } from './automatic-reminders';
export { sendAccountMail, type AccountMail } from './notification-delivery';
export { insertNotificationHistory, listPlayerNotificationHistory, type NewNotificationHistory } from './notification-history.repository';
export { insertNotificationTemplates, type NewNotificationTemplate } from './notification-templates.repository';
export { registerNotificationRoutes } from './notifications.routes';
export { insertReminderSchedules, type NewReminderSchedule } from './reminders.repository';
export {
  NOTIFICATION_SEND_QUEUE,
  createNotificationSendHandler,
  createNotificationsService,
  seedDefaultNotificationTemplates,
  type NotificationsService,
  type RefusedFileNotice,
} from './notifications.service';
