import { Laptop } from 'lucide-react';
import type { TSessionList } from '../../contract';
import { Badge } from '@/components/ui/badge';
import { formatDateTime } from '@/lib/format';
import { shortUserAgent } from '@/lib/user-agent';

type SessionSummary = TSessionList['sessions'][number];

/**
 * Signed-in sessions, one a row: the device (its browser in a few words, the full agent as a tooltip), when it
 * signed in and was last seen; the session of this browser says 'This device'.
 */
export function SessionList({ sessions, label }: { sessions: readonly SessionSummary[]; label: string }) {
  return (
    <ul className="flex flex-col divide-y" aria-label={label} data-testid="session-list">
      {sessions.map((session) => (
        <li key={session.id} className="flex items-start gap-3 py-3 first:pt-0 last:pb-0" data-testid="session-row" data-current={session.current || undefined}>
          <Laptop className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
              <span className="break-words" title={session.userAgent ?? undefined}>
                {shortUserAgent(session.userAgent)}
              </span>
              {session.current ? <Badge variant="success">This device</Badge> : null}
            </p>
            <p className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
              <span>
                Signed in <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
              </span>
              <span>
                Last seen <time dateTime={session.lastSeenAt}>{formatDateTime(session.lastSeenAt)}</time>
              </span>
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}
