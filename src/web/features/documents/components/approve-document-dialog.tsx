import { AlertTriangle, CheckCircle2, ChevronDown, LoaderCircle } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { DOC_TYPE_LABELS } from '../../../../contract';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getErrorMessage } from '@/lib/api-client';
import { useReturnFocus } from '@/lib/use-return-focus';
import { cn } from '@/lib/utils';
import { useDocumentReviewContext, type TReviewDecision } from '../api';
import { approvalDecision, birthDateChangeWarning, localToday, type ApprovalForm, type ApprovalProblems } from '../approval-step';

export interface ApproveTarget {
  id: string;
  fileName: string;
  playerName: string;
  docType: 'birth_certificate' | 'medical' | 'residency';
  /** Dates read from the document (the Review screen's), filled in for the reviewer to confirm or correct. */
  prefill?: { birthDate?: string; documentDate?: string };
}

/** What the step records, said under its title. */
const STEP_NOTES: Record<ApproveTarget['docType'], string> = {
  birth_certificate: 'The date of birth it shows becomes the player’s, and can no longer be changed afterwards.',
  medical: 'The approval counts from the exam date for as long as the season’s rule says.',
  residency: 'The date and group are checked against the season’s residency rule.',
};

const EMPTY_FORM: ApprovalForm = { birthDate: '', confirmBirthDateChange: false, documentDate: '', residencyGroup: '' };

/** A labelled field with its problem under it, tied to it for screen readers. */
function Field({ id, label, problem, children }: { id: string; label: string; problem: string | undefined; children: ReactNode }) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {problem ? (
        <p id={`${id}-problem`} role="alert" className="text-sm text-destructive-soft-foreground">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

const invalidProps = (id: string, problem: string | undefined) =>
  problem ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-problem` } : {};

function ApproveForm({
  target,
  busy,
  failure,
  onApprove,
}: {
  target: ApproveTarget;
  busy: boolean;
  /** What the server said when it refused the last try, in words. */
  failure: string | null;
  onApprove: (decision: TReviewDecision) => void;
}) {
  const baseId = useId();
  const context = useDocumentReviewContext(target.id);
  const registered = context.data?.player.birthDate;
  const firstName = context.data?.player.firstName ?? target.playerName.split(' ')[0] ?? target.playerName;
  const groups = context.data?.residencyGroups ?? [];
  // The certificate's date starts as the one read from it, else the registered one: most certificates agree with the registration.
  const [form, setForm] = useState<ApprovalForm>({ ...EMPTY_FORM, documentDate: target.prefill?.documentDate ?? '' });
  const [touchedBirthDate, setTouchedBirthDate] = useState(false);
  const birthDate = touchedBirthDate ? form.birthDate : (target.prefill?.birthDate ?? registered ?? '');
  const current: ApprovalForm = { ...form, birthDate };
  const [problems, setProblems] = useState<ApprovalProblems>({});
  const today = localToday();
  const changesBirthDate = target.docType === 'birth_certificate' && registered !== undefined && birthDate !== '' && birthDate !== registered;

  const set = (changes: Partial<ApprovalForm>) => {
    setForm((previous) => ({ ...previous, ...changes }));
    setProblems({});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = approvalDecision(target.docType, current, { registered, groups, today });
    if (!result.ok) {
      setProblems(result.problems);
      return;
    }
    onApprove(result.decision);
  };

  const ids = { birthDate: `${baseId}-birth`, confirm: `${baseId}-confirm`, documentDate: `${baseId}-date`, group: `${baseId}-group` };
  const loading = context.isPending;

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" data-testid="approve-form">
      {context.isError ? (
        <p role="alert" className="text-sm text-destructive-soft-foreground">
          The player’s details could not be read: {getErrorMessage(context.error)}
        </p>
      ) : null}
      {target.docType === 'birth_certificate' ? (
        <>
          <Field id={ids.birthDate} label="Date of birth on the certificate" problem={problems.birthDate}>
            <Input
              id={ids.birthDate}
              type="date"
              className="w-full sm:w-52"
              max={today}
              value={birthDate}
              disabled={busy || loading}
              onChange={(event) => {
                setTouchedBirthDate(true);
                set({ birthDate: event.target.value, confirmBirthDateChange: false });
              }}
              {...invalidProps(ids.birthDate, problems.birthDate)}
            />
          </Field>
          {registered !== undefined && !changesBirthDate ? (
            <p className="flex items-start gap-2 text-sm text-muted-foreground">
              <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-green-700 dark:text-green-400" aria-hidden="true" />
              Matches the registration.
            </p>
          ) : null}
          {changesBirthDate && registered !== undefined ? (
            <div className="grid gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/50" data-testid="birth-date-change">
              <p className="flex items-start gap-2" id={`${ids.confirm}-warning`}>
                <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-300" aria-hidden="true" />
                {birthDateChangeWarning(registered, birthDate, firstName)}
              </p>
              <div className="flex items-center gap-2">
                <Checkbox
                  id={ids.confirm}
                  checked={form.confirmBirthDateChange}
                  disabled={busy}
                  onCheckedChange={(checked) => set({ confirmBirthDateChange: checked === true })}
                  aria-describedby={problems.confirmBirthDateChange ? `${ids.confirm}-warning ${ids.confirm}-problem` : `${ids.confirm}-warning`}
                  aria-invalid={problems.confirmBirthDateChange ? true : undefined}
                />
                <Label htmlFor={ids.confirm} className="font-normal">
                  Change the date of birth
                </Label>
              </div>
              {problems.confirmBirthDateChange ? (
                <p id={`${ids.confirm}-problem`} role="alert" className="text-destructive-soft-foreground">
                  {problems.confirmBirthDateChange}
                </p>
              ) : null}
            </div>
          ) : null}
        </>
      ) : (
        <>
          <Field id={ids.documentDate} label={target.docType === 'medical' ? 'Exam date' : 'Date on the document'} problem={problems.documentDate}>
            <Input
              id={ids.documentDate}
              type="date"
              className="w-full sm:w-52"
              max={today}
              required
              value={form.documentDate}
              disabled={busy}
              onChange={(event) => set({ documentDate: event.target.value })}
              {...invalidProps(ids.documentDate, problems.documentDate)}
            />
          </Field>
          {target.docType === 'residency' && groups.length > 0 ? (
            <Field id={ids.group} label="Group" problem={problems.residencyGroup}>
              <div className="relative">
                <select
                  id={ids.group}
                  value={form.residencyGroup}
                  disabled={busy}
                  onChange={(event) => set({ residencyGroup: event.target.value })}
                  className={cn(
                    'h-9 w-full min-w-0 appearance-none truncate rounded-md border border-input bg-transparent py-2 pr-8 pl-3 text-sm shadow-xs outline-none',
                    'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-60 dark:bg-input/30',
                    '[&>option]:bg-popover [&>option]:text-popover-foreground',
                  )}
                  {...invalidProps(ids.group, problems.residencyGroup)}
                >
                  <option value="">Choose the group…</option>
                  {groups.map((group) => (
                    <option key={group} value={group}>
                      {group}
                    </option>
                  ))}
                </select>
                <ChevronDown className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 opacity-50" aria-hidden="true" />
              </div>
            </Field>
          ) : null}
        </>
      )}
      {failure ? (
        <p role="alert" className="rounded-md border border-destructive/40 p-3 text-sm text-destructive-soft-foreground" data-testid="approve-failure">
          {failure}
        </p>
      ) : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={busy}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={busy || loading}>
          {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <CheckCircle2 aria-hidden="true" />}
          Approve
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * The approval step of a document whose approval records facts for the season's rules: a birth certificate's
 * date of birth (checked against the registration; a different date must be confirmed, as it changes the
 * player's), a medical form's exam date, a residency proof's date and, when the season lists groups, its group.
 */
export function ApproveDocumentDialog({
  target,
  busy,
  failure,
  onOpenChange,
  onApprove,
}: {
  target: ApproveTarget | null;
  busy: boolean;
  failure: string | null;
  onOpenChange: (open: boolean) => void;
  onApprove: (target: ApproveTarget, decision: TReviewDecision) => void;
}) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog open={target !== null} onOpenChange={(open) => (busy && !open ? undefined : onOpenChange(open))}>
      <DialogContent className="sm:max-w-lg" data-testid="approve-dialog" {...returnFocus}>
        {target ? (
          <>
            <DialogHeader>
              <DialogTitle>Approve {DOC_TYPE_LABELS[target.docType]}</DialogTitle>
              <DialogDescription>
                <span className="break-all">{target.fileName}</span> from {target.playerName}. {STEP_NOTES[target.docType]}
              </DialogDescription>
            </DialogHeader>
            <ApproveForm key={target.id} target={target} busy={busy} failure={failure} onApprove={(decision) => onApprove(target, decision)} />
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
