import { Link2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
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
import { parseUploadLinkDays, UPLOAD_LINK_DAYS_HINT } from '../settings-text';

/** How many days a new family upload link works; checked here with the contract's rule, and again by the server. */
function UploadLinkDaysForm() {
  const settings = useSystemSettings();
  const update = useUpdateSettings();
  const saved = settings.data?.uploadLinkDays;
  // Undefined until the user types: the field then shows the saved value.
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const value = draft ?? (saved === undefined ? '' : String(saved));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseUploadLinkDays(value);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setError(undefined);
    update.mutate(
      { uploadLinkDays: parsed.days },
      {
        onSuccess: () => setDraft(undefined),
        onError: (failure) => {
          const detail = isApiError(failure) ? failure.body?.details?.find((d) => d.path.endsWith('uploadLinkDays')) : undefined;
          if (detail) setError(`Upload link days ${detail.message}.`);
        },
      },
    );
  };

  const errorId = 'upload-link-days-error';
  const hintId = 'upload-link-days-hint';
  const unchanged = draft === undefined || draft.trim() === String(saved);

  return (
    <form noValidate onSubmit={submit} data-testid="upload-link-days-form" className="flex flex-col gap-2">
      <Label htmlFor="upload-link-days">Upload links work for (days)</Label>
      <p id={hintId} className="text-sm text-muted-foreground">
        {UPLOAD_LINK_DAYS_HINT}
      </p>
      <div className="flex flex-wrap items-start gap-2">
        <Input
          id="upload-link-days"
          type="number"
          inputMode="numeric"
          min={1}
          max={180}
          step={1}
          className="w-32"
          value={value}
          disabled={!settings.data}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          onChange={(event) => {
            setDraft(event.target.value);
            setError(undefined);
          }}
        />
        <Button type="submit" disabled={!settings.data || update.isPending || unchanged}>
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive-soft-foreground" data-testid="upload-link-days-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** Settings → Notifications: how long a family's personal upload link works; read only but for admins. */
export function UploadLinkSettingsCard() {
  const { can } = usePermissions();
  const settings = useSystemSettings();
  const days = settings.data?.uploadLinkDays;

  return (
    <Card data-testid="upload-link-settings">
      <CardHeader>
        <IconCardTitle icon={Link2}>Family upload links</IconCardTitle>
        <CardDescription>
          A personal link lets a family send a player’s missing or not accepted documents from a phone, without signing in. Staff copy or e-mail it
          from the player.
        </CardDescription>
        {can('settings.manage') ? null : <ReadOnlyNote className="mt-2">Only an admin can change this.</ReadOnlyNote>}
      </CardHeader>
      <CardContent>
        {can('settings.manage') ? (
          <UploadLinkDaysForm />
        ) : (
          <p className="text-sm" data-testid="fact-uploadLinkDays">
            Upload links work for <span className="font-medium">{days === undefined ? '…' : `${days} ${days === 1 ? 'day' : 'days'}`}</span>.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
