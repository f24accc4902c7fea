import { asc } from 'drizzle-orm';
import type { Db } from './client';
import { insertInBatches } from './batch';
import { notificationTemplates } from './schema';

export type NotificationTemplateRow = typeof notificationTemplates.$inferSelect;
export type NewNotificationTemplate = typeof notificationTemplates.$inferInsert;

export const insertNotificationTemplates = (db: Db, rows: readonly NewNotificationTemplate[]) =>
  insertInBatches(db, notificationTemplates, rows);

export const listNotificationTemplates = (db: Db): Promise<NotificationTemplateRow[]> =>
  db.select().from(notificationTemplates).orderBy(asc(notificationTemplates.name));
