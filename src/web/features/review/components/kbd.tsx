import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** A key as printed on a button or in the key list; hidden from screen readers, which read aria-keyshortcuts. */
export function Kbd({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <kbd
      aria-hidden="true"
      className={cn('ml-1 hidden rounded border border-current/30 px-1.5 font-mono text-xs leading-5 opacity-80 sm:inline-block', className)}
    >
      {children}
    </kbd>
  );
}
