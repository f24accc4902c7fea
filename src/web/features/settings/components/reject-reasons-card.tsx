import { ListChecks, Plus, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { MAX_REJECT_REASON_LENGTH, MAX_REJECT_REASONS } from '../../../../contract';
import { IconCardTitle } from '@/components/icon-card-title';
import { ReadOnlyNote } from '@/components/read-only-note';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { isApiError } from '@/lib/api-client';
import { usePermissions } from '@/lib/session-api';
import { useSystemSettings } from '@/lib/system-settings-query';
import { useUpdateSettings } from '../api';
import { parseRejectReasons } from '../settings-text';

/** The list being edited: each reason with a key of its own, so editing one field never moves focus to another. */
type Draft = Array<{ key: number; text: string }>;

function ReasonsForm({ saved }: { saved: readonly string[] }) {
  const update = useUpdateSettings();
  const baseId = useId();
  const [nextKey, setNextKey] = useState(saved.length);
  const [draft, setDraft] = useState<Draft>(() => saved.map((text, key) => ({ key, text })));
  const [error, setError] = useState<string | undefined>(undefined);
  const unchanged = draft.length === saved.length && draft.every((entry, index) => entry.text.trim() === saved[index]);
  const errorId = `${baseId}-error`;

  const change = (next: Draft) => {
    setDraft(next);
    setError(undefined);
  };
  const add = () => {
    change([...draft, { key: nextKey, text: '' }]);
    setNextKey(nextKey + 1);
    // The new field takes the focus once it is drawn.
    requestAnimationFrame(() => document.getElementById(`${baseId}-reason-${nextKey}`)?.focus());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseRejectReasons(draft.map((entry) => entry.text));
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    update.mutate(
      { rejectReasons: parsed.value },
      {
        onSuccess: (settings) => change(settings.rejectReasons.map((text, key) => ({ key, text }))),
        onError: (failure) => {
          const detail = isApiError(failure) ? failure.body?.details?.find((d) => d.path.includes('rejectReasons')) : undefined;
          if (detail) setError(`${detail.message}.`);
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="grid gap-3" data-testid="reject-reasons-form">
      <ol className="grid gap-2" aria-label="Reasons">
        {draft.map((entry, index) => {
          const id = `${baseId}-reason-${entry.key}`;
          return (
            <li key={entry.key} className="flex items-center gap-2">
              <Label htmlFor={id} className="w-6 shrink-0 justify-end text-muted-foreground tabular-nums">
                <span aria-hidden="true">{index + 1}.</span>
                <span className="sr-only">Reason {index + 1}</span>
              </Label>
              <Input
                id={id}
                value={entry.text}
                maxLength={MAX_REJECT_REASON_LENGTH}
                className="min-w-0 flex-1"
                aria-describedby={error ? errorId : undefined}
                onChange={(event) => change(draft.map((other) => (other.key === entry.key ? { ...other, text: event.target.value } : other)))}
              />
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-9 shrink-0"
                title="Remove"
                disabled={draft.length <= 1}
                onClick={() => change(draft.filter((other) => other.key !== entry.key))}
              >
                <Trash2 aria-hidden="true" />
                <span className="sr-only">Remove reason {index + 1}</span>
              </Button>
            </li>
          );
        })}
      </ol>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive-soft-foreground" data-testid="reject-reasons-error">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant="outline" onClick={add} disabled={draft.length >= MAX_REJECT_REASONS}>
          <Plus aria-hidden="true" />
          Add a reason
        </Button>
        <Button type="submit" disabled={update.isPending || unchanged}>
          {update.isPending ? 'Saving...' : 'Save reasons'}
        </Button>
        {unchanged ? null : (
          <Button type="button" variant="ghost" onClick={() => change(saved.map((text, key) => ({ key, text })))} disabled={update.isPending}>
            Undo changes
          </Button>
        )}
      </div>
    </form>
  );
}

/** Settings → System: the reasons a reviewer picks from when not accepting a document; admins edit the list. */
export function RejectReasonsCard() {
  const { can } = usePermissions();
  const settings = useSystemSettings();
  const reasons = settings.data?.rejectReasons;
  const manages = can('settings.manage');

  return (
    <Card data-testid="reject-reasons-settings">
      <CardHeader>
        <IconCardTitle icon={ListChecks}>Reasons for not accepting a document</IconCardTitle>
        <CardDescription>
          Reviewers pick one of these when they reject a document, and may add more detail. The reason is kept with the document and can be
          e-mailed to the family. Up to {MAX_REJECT_REASONS} reasons.
        </CardDescription>
        {manages ? null : <ReadOnlyNote className="mt-2">Only an admin can change this.</ReadOnlyNote>}
      </CardHeader>
      <CardContent>
        {reasons === undefined ? (
          <p className="text-sm text-muted-foreground">Loading…</p>
        ) : manages ? (
          <ReasonsForm key={reasons.join('\n')} saved={reasons} />
        ) : (
          <ul className="list-disc space-y-1 pl-5 text-sm" data-testid="fact-rejectReasons">
            {reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
