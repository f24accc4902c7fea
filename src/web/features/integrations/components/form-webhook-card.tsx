import { Eye, EyeOff, FileSignature, KeyRound, Link2, LoaderCircle, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import type { TFormWebhook } from '../../../../contract';
import { CopyButton } from '@/components/copy-button';
import { FormError } from '@/components/form-field';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { ReadOnlyNote } from '@/components/read-only-note';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { usePermissions } from '@/lib/session-api';
import { useReturnFocus } from '@/lib/use-return-focus';
import { useFormWebhook, useRevealFormSecret, useRotateFormSecret } from '../api';
import { webhookAddress } from '../integrations-text';

const HIDDEN_SECRET = '••••••••••••••••••••••••';

function WebhookDetails({ webhook }: { webhook: TFormWebhook }) {
  const id = useId();
  const address = webhookAddress(window.location.origin, webhook.path);
  const [secret, setSecret] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const reveal = useRevealFormSecret();
  const rotate = useRotateFormSecret();
  const returnFocus = useReturnFocus();
  const fromEnvironment = webhook.source === 'environment';

  const show = () => {
    setFailure(null);
    setStatus('');
    reveal.mutate(undefined, {
      onSuccess: (answer) => setSecret(answer.secret),
      onError: (error) => setFailure(getErrorMessage(error, 'The secret could not be shown. Please try again.')),
    });
  };
  const replace = () => {
    setConfirming(false);
    setFailure(null);
    setStatus('');
    rotate.mutate(undefined, {
      onSuccess: (answer) => {
        setSecret(answer.secret);
        setStatus('New secret in force. The old one no longer works: copy this one into every form or script that sends here.');
      },
      onError: (error) => setFailure(getErrorMessage(error, 'The secret could not be replaced. Please try again.')),
    });
  };

  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby={`${id}-address-heading`} className="flex flex-col gap-3" data-testid="form-webhook-address">
        <h3 id={`${id}-address-heading`} className="flex items-center gap-2 text-sm font-semibold">
          <Link2 className="size-4 text-muted-foreground" aria-hidden="true" />
          Webhook address
        </h3>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <code id={`${id}-address`} className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all" data-testid="form-webhook-url">
            {address}
          </code>
          <CopyButton text={address} label="Copy address" size="sm" className="w-fit" aria-describedby={`${id}-address`} />
        </div>
        <p className="text-sm text-muted-foreground">
          Your registration form posts each response here, signed with the secret below (header X-Clearbase-Signature, HMAC-SHA256).
        </p>
      </section>
      <section aria-labelledby={`${id}-secret-heading`} className="flex flex-col gap-3" data-testid="form-webhook-secret">
        <h3 id={`${id}-secret-heading`} className="flex items-center gap-2 text-sm font-semibold">
          <KeyRound className="size-4 text-muted-foreground" aria-hidden="true" />
          Secret
        </h3>
        <code
          id={`${id}-secret`}
          className="min-w-0 rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all"
          data-testid="form-webhook-secret-value"
          aria-label={secret === null ? 'Secret, hidden' : 'Secret'}
        >
          {secret ?? HIDDEN_SECRET}
        </code>
        {fromEnvironment ? (
          <p className="rounded-md bg-warning-soft px-3 py-2 text-sm text-warning-soft-foreground" data-testid="form-webhook-env-note">
            Set on the server by {webhook.variable}; change it there.
          </p>
        ) : (
          <p className="text-sm text-muted-foreground">Kept encrypted. Made for this installation; Rotate replaces it with a new one.</p>
        )}
        <div className="flex flex-wrap gap-2">
          {secret === null ? (
            <Button variant="outline" size="sm" onClick={show} disabled={reveal.isPending}>
              {reveal.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Eye aria-hidden="true" />}
              Reveal
            </Button>
          ) : (
            <>
              <Button variant="outline" size="sm" onClick={() => setSecret(null)} aria-controls={`${id}-secret`}>
                <EyeOff aria-hidden="true" />
                Hide
              </Button>
              <CopyButton text={secret} label="Copy secret" size="sm" aria-describedby={`${id}-secret`} />
            </>
          )}
          <Button variant="outline" size="sm" onClick={() => setConfirming(true)} disabled={fromEnvironment || rotate.isPending}>
            {rotate.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <RefreshCw aria-hidden="true" />}
            Rotate
          </Button>
        </div>
        <AlertDialog open={confirming} onOpenChange={setConfirming}>
          <AlertDialogContent {...returnFocus}>
            <AlertDialogHeader>
              <AlertDialogTitle>Replace the form webhook secret?</AlertDialogTitle>
              <AlertDialogDescription>
                A new random secret takes over at once and the current one stops working: submissions signed with it are refused. Update every form
                or script that sends to this address with the new secret.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <Button variant="destructive" onClick={replace}>
                Rotate secret
              </Button>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
        <p role="status" className="text-sm text-success-soft-foreground empty:hidden" data-testid="form-webhook-status">
          {status}
        </p>
        <FormError message={failure} testId="form-webhook-error" />
      </section>
    </div>
  );
}

function WebhookContent() {
  const webhook = useFormWebhook();
  if (webhook.isPending) {
    return (
      <LoadingState label="Loading the form webhook" className="flex flex-col gap-3">
        <Skeleton className="h-9 w-full" />
        <Skeleton className="h-9 w-full" />
      </LoadingState>
    );
  }
  if (webhook.isError) {
    return (
      <LoadError
        title="Unable to load the form webhook."
        detail={getErrorMessage(webhook.error)}
        onRetry={() => void webhook.refetch()}
        retrying={webhook.isFetching}
      />
    );
  }
  return <WebhookDetails webhook={webhook.data} />;
}

/** System Settings → Integrations: where Clearbase's own registration form posts, and its secret (Reveal, Copy, Rotate). */
export function FormWebhookCard() {
  const { can } = usePermissions();
  const manages = can('settings.manage');
  return (
    <Card data-testid="form-webhook">
      <CardHeader>
        <IconCardTitle icon={FileSignature}>Form webhook</IconCardTitle>
        <CardDescription>The address and secret to give your own registration form or script, so its responses arrive here</CardDescription>
        {manages ? null : <ReadOnlyNote className="mt-2">Only an admin can see the form webhook’s secret.</ReadOnlyNote>}
      </CardHeader>
      {manages ? (
        <CardContent>
          <WebhookContent />
        </CardContent>
      ) : null}
    </Card>
  );
}
