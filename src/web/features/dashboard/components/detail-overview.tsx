import type { TStatsBreakdown } from '../../../../contract';
import { cn } from '@/lib/utils';
import { buildOverviewCards, type TStatKind } from '../stat-details';
import { TONE_BORDER } from './tone-classes';
import { UploadRow } from './upload-row';

const numberFormat = new Intl.NumberFormat();

/** The Overview tab: four breakdown cards (count, colour, share of the whole) and the five latest uploads. */
export function DetailOverview({ kind, breakdown }: { kind: TStatKind; breakdown: TStatsBreakdown }) {
  const cards = buildOverviewCards(kind, breakdown);
  const recent = breakdown.recent.slice(0, 5);
  return (
    <div className="flex flex-col gap-6">
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-4" aria-label="Breakdown">
        {cards.map((card) => (
          <li key={card.id} data-testid="breakdown-card" className={cn('flex min-w-0 flex-col gap-1 rounded-lg border border-l-4 bg-card p-3', TONE_BORDER[card.tone])}>
            <span className="text-xs font-medium break-words text-muted-foreground">{card.label}</span>
            <span className="text-xl font-semibold tabular-nums" data-testid="breakdown-count">
              {numberFormat.format(card.count)}
            </span>
            <span className="text-xs text-muted-foreground">
              {card.percent}% of {card.of}
            </span>
          </li>
        ))}
      </ul>
      <section aria-labelledby="detail-recent-heading" className="flex flex-col gap-3">
        <h3 id="detail-recent-heading" className="text-sm font-semibold">
          Recent activity
        </h3>
        {recent.length > 0 ? (
          <ul className="flex flex-col divide-y" data-testid="recent-activity">
            {recent.map((upload) => (
              <UploadRow key={upload.id} upload={upload} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No recent uploads</p>
        )}
      </section>
    </div>
  );
}
