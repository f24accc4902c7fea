import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { CardTitle } from '@/components/ui/card';

/** A card's title with a small icon before it, in the primary colour unless `iconTone` says otherwise. */
export function IconCardTitle({ icon: Icon, iconTone = 'text-primary', children }: { icon: LucideIcon; iconTone?: string; children: ReactNode }) {
  return (
    <CardTitle className="flex items-center gap-2">
      <Icon className={`size-4 ${iconTone}`} aria-hidden="true" />
      {children}
    </CardTitle>
  );
}
