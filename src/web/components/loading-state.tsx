import type { ReactNode } from 'react';

/**
 * Where content is still loading: the skeleton shapes given as children, marked busy, with `label` (what is
 * loading) for screen readers.
 */
export function LoadingState({ label, className, testId, children }: { label: string; className?: string; testId?: string; children: ReactNode }) {
  return (
    <div aria-busy="true" className={className} data-testid={testId}>
      <span className="sr-only">{label}</span>
      {children}
    </div>
  );
}
