import { Eye } from 'lucide-react';
import { cn } from '@/lib/utils';

/**
 * Says that what follows is shown read only because the signed-in role cannot change it (its controls are
 * hidden, not disabled). `children` says who can: 'Only an admin can change these settings.' `lead` replaces
 * 'Read only.' where the role keeps some controls.
 */
export function ReadOnlyNote({
  children,
  lead = 'Read only.',
  className,
  testId = 'read-only-note',
}: {
  children: string;
  lead?: string;
  className?: string;
  testId?: string;
}) {
  return (
    <p data-testid={testId} className={cn('flex items-start gap-2 rounded-md bg-muted px-3 py-2 text-sm text-muted-foreground', className)}>
      <Eye className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        <span className="font-medium text-foreground">{lead}</span> {children}
      </span>
    </p>
  );
}
