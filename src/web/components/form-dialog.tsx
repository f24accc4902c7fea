import type { LucideIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';

interface FormDialogProps {
  /** The opening button's icon; its text is the title. */
  icon: LucideIcon;
  title: string;
  description: string;
  /** Classes of the dialog, e.g. its width. */
  className?: string;
  testId?: string;
  /** The form, given `close` for when it is done. */
  children: (close: () => void) => ReactNode;
}

/**
 * A button that opens a dialog of the same name holding a form. The form is mounted only while the dialog is
 * open, so every opening starts from an empty form.
 */
export function FormDialog({ icon: Icon, title, description, className, testId, children }: FormDialogProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <Icon aria-hidden="true" />
          {title}
        </Button>
      </DialogTrigger>
      <DialogContent className={className} data-testid={testId}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {open ? children(() => setOpen(false)) : null}
      </DialogContent>
    </Dialog>
  );
}
