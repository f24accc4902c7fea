import type { ReactNode } from 'react';
import { LoaderCircle, type LucideIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { DialogClose, DialogFooter } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

/** What a form control gets from its field: its id and the ARIA that ties it to the label and the error. */
export type FieldControlProps = { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined; 'aria-required': boolean };

/**
 * A label, a control and the control's error, tied together by id, aria-invalid and aria-describedby.
 * `name` is the form's field name: the error's data-testid is `error-<name>`.
 */
export function FormField({
  name,
  label,
  required,
  id,
  error,
  className,
  children,
}: {
  name: string;
  label: string;
  required: boolean;
  id: string;
  error: string | undefined;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const errorId = `${id}-error`;
  return (
    <div className={cn('flex min-w-0 flex-col gap-2', className)}>
      <Label htmlFor={id}>
        {label}
        {required ? (
          <span className="text-destructive-soft-foreground" aria-hidden="true">
            *
          </span>
        ) : null}
      </Label>
      {children({ id, 'aria-invalid': error !== undefined, 'aria-describedby': error ? errorId : undefined, 'aria-required': required })}
      {error ? (
        <p id={errorId} className="text-xs break-words text-destructive-soft-foreground" data-testid={`error-${name}`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The message of a form that was refused as a whole (or of what has no field of its own); nothing without one. */
export function FormError({ message, id, testId }: { message: string | null | undefined; id?: string; testId?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="rounded-md bg-destructive-soft px-3 py-2 text-sm break-words text-destructive-soft-foreground" data-testid={testId}>
      {message}
    </p>
  );
}

/** A form dialog's Cancel and submit buttons; while the request runs the submit button spins and says so. */
export function FormDialogFooter({
  pending,
  disabled = false,
  icon: Icon,
  label,
  pendingLabel = label,
}: {
  pending: boolean;
  disabled?: boolean;
  icon: LucideIcon;
  label: string;
  pendingLabel?: string;
}) {
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button variant="outline">Cancel</Button>
      </DialogClose>
      <Button type="submit" disabled={disabled || pending}>
        {pending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Icon aria-hidden="true" />}
        {pending ? pendingLabel : label}
      </Button>
    </DialogFooter>
  );
}
