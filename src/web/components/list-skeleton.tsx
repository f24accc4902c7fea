import { Skeleton } from '@/components/ui/skeleton';
import { LoadingState } from './loading-state';

/**
 * The loading shape of a list of rows that each have an icon or avatar, two lines of text and something at
 * the end (a badge, a bar). `label` is what screen readers hear; the classes size each part like the real row.
 */
export function ListSkeleton({
  label,
  rows,
  leading,
  lines,
  trailing,
  className = 'flex flex-col gap-4',
  testId,
}: {
  label: string;
  rows: number;
  leading: string;
  lines: readonly [string, string];
  trailing: string;
  className?: string;
  testId?: string;
}) {
  return (
    <LoadingState label={label} className={className} testId={testId}>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="flex items-center gap-3">
          <Skeleton className={leading} />
          <div className="flex flex-1 flex-col gap-1.5">
            <Skeleton className={lines[0]} />
            <Skeleton className={lines[1]} />
          </div>
          <Skeleton className={trailing} />
        </div>
      ))}
    </LoadingState>
  );
}
