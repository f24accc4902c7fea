import { Search } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';
import { Input } from './input';

/** A search box: an `<input type="search">` with the magnifier inside it. Props go to the input. */
export function SearchInput({ className, wrapperClassName, ...props }: Omit<ComponentProps<typeof Input>, 'type'> & { wrapperClassName?: string }) {
  return (
    <div className={cn('relative', wrapperClassName)}>
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <Input type="search" className={cn('pl-9', className)} {...props} />
    </div>
  );
}
