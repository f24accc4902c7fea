import type { TNotificationHistory } from '../../../contract';
import { formatCount } from '@/lib/format';

/**
 * The line under History's title: '1,234 messages, newest first; …', or 'About 24,000 messages, …' when the
 * server estimated the total (past about a thousand it does not count them all).
 */
export function historySummary(data: Pick<TNotificationHistory, 'total' | 'totalIsEstimate'>): string {
  const count = formatCount(data.total, data.totalIsEstimate);
  const word = data.total === 1 && !data.totalIsEstimate ? 'message' : 'messages';
  return `${count.charAt(0).toUpperCase()}${count.slice(1)} ${word}, newest first; open a subject to read the message`;
}
