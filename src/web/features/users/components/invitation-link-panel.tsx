import { Mail, MailWarning } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import type { TInvitationLink } from '../../../../contract';
import { CopyButton } from '@/components/copy-button';
import { Button } from '@/components/ui/button';
import { DialogClose, DialogFooter } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { formatDateTime } from '@/lib/format';
import { invitationMailText } from '../user-display';

/**
 * The link a person sets their password with (an invitation, or a password reset): the address to copy, until
 * when it works, and whether it was e-mailed. Focus lands on its heading, which the screen reader reads first.
 */
export function InvitationLinkPanel({
  heading,
  email,
  invitation,
  emailed,
}: {
  heading: string;
  email: string;
  invitation: TInvitationLink;
  emailed: boolean;
}) {
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <section className="flex flex-col gap-4" aria-labelledby={`${id}-heading`} data-testid="invitation-link-panel">
      <h3 id={`${id}-heading`} ref={headingRef} tabIndex={-1} className="text-base font-semibold wrap-anywhere outline-none">
        {heading}
      </h3>
      <p
        className={
          emailed
            ? 'flex items-start gap-2 rounded-md bg-success-soft px-3 py-2 text-sm wrap-anywhere text-success-soft-foreground'
            : 'flex items-start gap-2 rounded-md bg-warning-soft px-3 py-2 text-sm wrap-anywhere text-warning-soft-foreground'
        }
        data-testid="invitation-mail"
      >
        {emailed ? <Mail className="mt-0.5 size-4 shrink-0" aria-hidden="true" /> : <MailWarning className="mt-0.5 size-4 shrink-0" aria-hidden="true" />}
        <span>{invitationMailText(emailed, email)}</span>
      </p>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-url`}>Link</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id={`${id}-url`}
            readOnly
            value={invitation.url}
            className="font-mono text-xs md:text-xs"
            onFocus={(event) => event.currentTarget.select()}
            aria-describedby={`${id}-expiry`}
            data-testid="invitation-url"
          />
          <CopyButton text={invitation.url} label="Copy link" className="shrink-0" />
        </div>
        <p id={`${id}-expiry`} className="text-xs text-muted-foreground">
          Works once, until <time dateTime={invitation.expiresAt}>{formatDateTime(invitation.expiresAt)}</time>. Earlier links for this person no longer work.
        </p>
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button>Done</Button>
        </DialogClose>
      </DialogFooter>
    </section>
  );
}
