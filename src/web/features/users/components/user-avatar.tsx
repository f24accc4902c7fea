import { useState } from 'react';
import type { TUser } from '../../../../contract';
import { cn } from '@/lib/utils';
import { userInitials } from '../user-display';

/**
 * The profile image, or the initials when there is none or it does not load (the page's CSP allows images
 * from this server only). Decorative: the name is always written next to it.
 */
export function UserAvatar({ user, className }: { user: Pick<TUser, 'firstName' | 'lastName' | 'email' | 'profileImageUrl'>; className?: string }) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const url = user.profileImageUrl;
  const frame = cn('flex size-9 shrink-0 items-center justify-center overflow-hidden rounded-full bg-secondary text-xs font-semibold text-secondary-foreground', className);
  if (url && failedUrl !== url) {
    return (
      <span className={frame} aria-hidden="true">
        <img src={url} alt="" className="size-full object-cover" onError={() => setFailedUrl(url)} data-testid="user-avatar-image" />
      </span>
    );
  }
  return (
    <span className={frame} aria-hidden="true" data-testid="user-initials">
      {userInitials(user)}
    </span>
  );
}
