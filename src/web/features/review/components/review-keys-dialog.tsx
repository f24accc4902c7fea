import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useReturnFocus } from '@/lib/use-return-focus';
import { REVIEW_KEY_HELP, REVIEW_KEYS } from '../review-keys';

/** The list of keys (?), in words. */
export function ReviewKeysDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md" data-testid="review-keys" {...returnFocus}>
        <DialogHeader>
          <DialogTitle>Keys for reviewing</DialogTitle>
          <DialogDescription>They work anywhere on this screen, except while typing in a field or with a window like this one open.</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] items-baseline gap-x-4 gap-y-2 text-sm">
          {REVIEW_KEY_HELP.map(({ action, text }) => (
            <div key={action} className="contents">
              <dt>
                <kbd className="inline-block min-w-7 rounded border px-1.5 text-center font-mono text-xs leading-6">{REVIEW_KEYS[action]}</kbd>
              </dt>
              <dd>{text}</dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}
