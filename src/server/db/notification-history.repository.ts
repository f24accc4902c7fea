import { desc } from 'drizzle-orm';
import type { Db } from './client';
import { insertInBatches } from './batch';
import { notificationHistory } from './schema';

export type NotificationHistoryRow = typeof notificationHistory.$inferSelect;
export type NewNotificationHistory = typeof notificationHistory.$inferInsert;

export const insertNotificationHistory = (db: Db, rows: readonly NewNotificationHistory[]) =>
  insertInBatches(db, notificationHistory, rows);

export const listNotificationHistory = (db: Db, limit = 100): Promise<NotificationHistoryRow[]> =>
  db.select().from(notificationHistory).orderBy(desc(notificationHistory.createdAt)).limit(limit);
