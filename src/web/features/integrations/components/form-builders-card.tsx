import { ChevronDown, Link2, Webhook } from 'lucide-react';
import { useId, useState } from 'react';
import type { TIntegration } from '../../../../contract';
import { CopyButton } from '@/components/copy-button';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { ReadOnlyNote } from '@/components/read-only-note';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { usePermissions } from '@/lib/session-api';
import { cn } from '@/lib/utils';
import { useIntegrations, useUpdateIntegration } from '../api';
import {
  AUTH_KIND_HELP,
  DOWNLOAD_KEY_NAMES,
  downloadKeyProblem,
  GENERATED_SECRET_LENGTH,
  integrationState,
  secretProblem,
  secretSummary,
  showsDownloadKey,
  SECRET_MIN_LENGTH,
  webhookAddress,
} from '../integrations-text';
import { DeliveriesLog } from './deliveries-log';
import { MappingSection } from './mapping-section';
import { SealedValueSection } from './sealed-value-section';

function WebhookAddress({ integration }: { integration: TIntegration }) {
  const id = useId();
  const address = webhookAddress(window.location.origin, integration.webhookPath);
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-3" data-testid="webhook-address">
      <h4 id={`${id}-heading`} className="flex items-center gap-2 text-sm font-semibold">
        <Link2 className="size-4 text-muted-foreground" aria-hidden="true" />
        Webhook address
      </h4>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code id={`${id}-address`} className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all" data-testid="webhook-url">
          {address}
        </code>
        <CopyButton text={address} label="Copy address" size="sm" className="w-fit" aria-describedby={`${id}-address`} />
      </div>
      <p className="text-sm text-muted-foreground">{AUTH_KIND_HELP[integration.authKind](integration.name)}</p>
    </section>
  );
}

/** One provider's settings and log, shown when its row is opened. */
function IntegrationPanel({ integration }: { integration: TIntegration }) {
  const update = useUpdateIntegration(integration.provider);
  const save = (patch: Parameters<typeof update.mutateAsync>[0]) => update.mutateAsync(patch);
  const { name } = integration;
  const keyName = DOWNLOAD_KEY_NAMES[integration.provider] ?? 'download key';
  return (
    <div className="flex min-w-0 flex-col gap-6 border-t px-1 pt-4 pb-2 sm:px-2">
      <WebhookAddress integration={integration} />
      <SealedValueSection
        field="secret"
        testId="secret-section"
        title="Secret"
        summary={secretSummary(integration)}
        isSet={integration.secretSource === 'own'}
        setLabel="Set own secret"
        inputLabel={`New secret for ${name}`}
        hint={`At least ${SECRET_MIN_LENGTH} characters. Generate makes a random one of ${GENERATED_SECRET_LENGTH}: copy it into ${name} before saving, it is not shown again.`}
        generate
        problem={secretProblem}
        removeTitle={`Remove ${name}’s own secret?`}
        removeDescription={`Deliveries from ${name} are then checked with the default secret (FORM_WEBHOOK_SECRET), or refused if the server has none. Deliveries made with the removed secret are refused.`}
        save={save}
        pending={update.isPending}
      />
      {showsDownloadKey(integration) ? (
        <SealedValueSection
          field="downloadKey"
          testId="download-key-section"
          title="Download key"
          summary={integration.downloadKeySet ? `The ${keyName} is set: uploaded files are downloaded with it.` : `Not set: files that ${name} keeps private cannot be downloaded without the ${keyName}.`}
          isSet={integration.downloadKeySet}
          setLabel="Set download key"
          inputLabel={`The ${keyName}`}
          hint="Kept encrypted; used only to download the files of a delivery."
          problem={downloadKeyProblem}
          removeTitle={`Remove ${name}’s download key?`}
          removeDescription={`Files that ${name} keeps private can no longer be downloaded: deliveries with such files fail until a key is set again.`}
          save={save}
          pending={update.isPending}
        />
      ) : null}
      <MappingSection integration={integration} save={save} pending={update.isPending} />
      <DeliveriesLog integration={integration} />
    </div>
  );
}

function IntegrationRow({ integration }: { integration: TIntegration }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const state = integrationState(integration);
  return (
    <li className="flex min-w-0 flex-col py-2" data-testid={`integration-${integration.provider}`}>
      <h3>
        <button
          type="button"
          id={`${id}-toggle`}
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          onClick={() => setOpen((shown) => !shown)}
          className="flex w-full min-w-0 items-center gap-3 rounded-md px-1 py-2 text-left outline-none hover:bg-muted/50 focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:px-2"
        >
          {/* A phone: the name and its state on one line, the last delivery under them. Wider: all three on one line. */}
          <span className="grid min-w-0 flex-1 grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)_auto]">
            <span className="font-medium break-words">{integration.name}</span>
            <Badge variant={state.tone} data-testid="integration-state" className="sm:order-last">
              {state.label}
            </Badge>
            <span className="col-span-2 text-xs text-muted-foreground sm:col-span-1" data-testid="integration-last-delivery">
              {integration.lastDeliveryAt ? (
                <>
                  Last delivery <time dateTime={integration.lastDeliveryAt}>{formatDateTime(integration.lastDeliveryAt)}</time>
                </>
              ) : (
                'No deliveries yet'
              )}
            </span>
          </span>
          <ChevronDown className={cn('size-4 shrink-0 text-muted-foreground transition-transform', open && 'rotate-180')} aria-hidden="true" />
        </button>
      </h3>
      {open ? (
        <div id={`${id}-panel`} role="region" aria-labelledby={`${id}-toggle`}>
          <IntegrationPanel integration={integration} />
        </div>
      ) : null}
    </li>
  );
}

function IntegrationList() {
  const integrations = useIntegrations(true);
  if (integrations.isPending) {
    return (
      <LoadingState label="Loading form builders" className="flex flex-col gap-3">
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} className="h-10 w-full" />
        ))}
      </LoadingState>
    );
  }
  if (integrations.isError) {
    return (
      <LoadError
        title="Unable to load the form builders."
        detail={getErrorMessage(integrations.error)}
        onRetry={() => void integrations.refetch()}
        retrying={integrations.isFetching}
      />
    );
  }
  return (
    <ul className="flex flex-col divide-y" aria-label="Form builders">
      {integrations.data.integrations.map((integration) => (
        <IntegrationRow key={integration.provider} integration={integration} />
      ))}
    </ul>
  );
}

/**
 * System Settings → Integrations: the form builders that post registrations to Clearbase, each with its webhook
 * address, secret, download key, question mapping and deliveries log. Only for a principal who may manage
 * settings; anyone else reads who can.
 */
export function FormBuildersCard() {
  const { can } = usePermissions();
  const manages = can('settings.manage');
  return (
    <Card data-testid="form-builders">
      <CardHeader>
        <IconCardTitle icon={Webhook}>Form builders</IconCardTitle>
        <CardDescription>
          Registration forms made with Jotform, Typeform, Google Forms and others send each response here. Open one to get its address, set its
          secret and see what it sent.
        </CardDescription>
        {manages ? null : <ReadOnlyNote className="mt-2">Only an admin can see and set up the form builders.</ReadOnlyNote>}
      </CardHeader>
      {manages ? (
        <CardContent className="px-4 sm:px-6">
          <IntegrationList />
        </CardContent>
      ) : null}
    </Card>
  );
}
