import { Fingerprint, FolderTree, Server } from 'lucide-react';
import type { TInstallation } from '../../../../contract';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { useInstallation } from '@/lib/system-settings-query';
import { useDocumentTitle } from '@/lib/use-document-title';
import { acceptedTypesText, fileSizeText, minutesText, pipelineStages, retentionText, splitStoredPath, type StageState } from '../workflow-text';

const STATE_BADGE: Record<StageState, 'success' | 'warning' | 'secondary'> = { on: 'success', warning: 'warning', off: 'secondary' };

/** App Workflow: the intake pipeline's stages and the accepted formats, as this installation runs them. */
export function BackendWorkflowPage() {
  useDocumentTitle('App Workflow');
  const installation = useInstallation();

  return (
    <>
      <PageHeader title="App Workflow" description="How a submitted document travels through Clearbase, on this installation" />
      {installation.isPending ? (
        <LoadingState label="Loading the workflow" className="flex flex-col gap-4">
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-96 w-full" />
        </LoadingState>
      ) : installation.isError ? (
        <LoadError
          variant="card"
          title={`Unable to load this installation’s settings: ${getErrorMessage(installation.error)}`}
          onRetry={() => void installation.refetch()}
          retrying={installation.isFetching}
          iconSpins={false}
        />
      ) : (
        <div className="flex flex-col gap-6">
          <InstallationCard installation={installation.data} />
          <PipelineCard installation={installation.data} />
          <FormatsCard installation={installation.data} />
        </div>
      )}
    </>
  );
}

function InstallationCard({ installation }: { installation: TInstallation }) {
  const { antivirus, storage, mailbox } = installation;
  const scanning = !antivirus.scanningOn ? 'Off (turned off in Settings)' : antivirus.clamdConfigured ? `On, ClamAV at ${antivirus.clamdLocation ?? '?'}` : 'On, but ClamAV is not configured';
  const rows: Array<{ id: string; term: string; value: string; mono?: boolean }> = [
    { id: 'driver', term: 'Storage', value: storage.driver === 's3' ? 'Amazon S3 (s3)' : 'Local encrypted storage (local)' },
    { id: 'location', term: 'Location', value: storage.location ?? '', mono: true },
    { id: 'scanning', term: 'Virus scanning', value: scanning },
    { id: 'retention', term: 'Retention', value: `${retentionText(installation.retentionYears)} after upload` },
    { id: 'max-size', term: 'Largest file', value: fileSizeText(installation.maxFileBytes) },
    { id: 'types', term: 'Accepted files', value: acceptedTypesText(installation.acceptedFileTypes) },
    { id: 'form', term: 'Form webhook', value: installation.formWebhookConfigured ? 'Configured' : 'Not set up (Settings → Integrations)' },
    {
      id: 'mailbox',
      term: 'Mailbox',
      value: mailbox.configured && mailbox.intervalMs !== null ? `Configured, checked every ${minutesText(mailbox.intervalMs)}` : 'Not set up (Settings → Integrations)',
    },
  ];
  return (
    <Card data-testid="workflow-installation">
      <CardHeader>
        <IconCardTitle icon={Server}>This installation</IconCardTitle>
        <CardDescription>Set when the server starts (environment variables) and in System Settings.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          {rows.map((row) => (
            <div key={row.id} className="contents">
              <dt className="text-muted-foreground max-sm:mt-2">{row.term}</dt>
              <dd data-testid={`workflow-${row.id}`} className={row.mono ? 'min-w-0 font-mono text-xs break-all sm:leading-5' : 'min-w-0 font-medium break-words'}>
                {row.value}
              </dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

function PipelineCard({ installation }: { installation: TInstallation }) {
  const stages = pipelineStages(installation);
  return (
    <Card>
      <CardHeader>
        <CardTitle>The pipeline, step by step</CardTitle>
        <CardDescription>Every document goes through these steps in this order. Stopping early (a duplicate, a virus) is recorded, never lost.</CardDescription>
      </CardHeader>
      <CardContent>
        <ol data-testid="workflow-stages" className="flex flex-col">
          {stages.map((stage, index) => (
            <li key={stage.id} data-testid="workflow-stage" data-stage={stage.id} className="relative flex gap-4 pb-6 last:pb-0">
              {index < stages.length - 1 ? <span aria-hidden="true" className="absolute top-8 bottom-0 left-4 w-px bg-border" /> : null}
              <span
                aria-hidden="true"
                className="z-10 flex size-8 shrink-0 items-center justify-center rounded-full border bg-background text-sm font-semibold text-primary"
              >
                {index + 1}
              </span>
              <div className="flex min-w-0 flex-1 flex-col gap-1.5 pt-1">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="font-medium">
                    <span className="sr-only">Step {index + 1}: </span>
                    {stage.title}
                  </h3>
                  {stage.here ? (
                    <Badge variant={STATE_BADGE[stage.here.state]} className="max-w-full whitespace-normal break-all text-left">
                      {stage.here.text}
                    </Badge>
                  ) : null}
                </div>
                <p className="text-sm text-muted-foreground">{stage.description}</p>
              </div>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

function FormatsCard({ installation }: { installation: TInstallation }) {
  const { example } = installation;
  const { folder, fileName } = splitStoredPath(example.storedPath);
  return (
    <Card data-testid="workflow-example">
      <CardHeader>
        <IconCardTitle icon={FolderTree}>Player id and stored path</IconCardTitle>
        <CardDescription>The formats, and a worked example computed by the server’s own functions for a sample player.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5 text-sm">
        <section className="flex flex-col gap-1.5">
          <h3 className="flex items-center gap-2 font-medium">
            <Fingerprint className="size-4 text-muted-foreground" aria-hidden="true" />
            Player id
          </h3>
          <code data-testid="workflow-player-id-format" className="w-fit max-w-full rounded bg-muted px-2 py-1 font-mono text-xs break-all">
            {installation.playerId.format}
          </code>
          <p className="text-muted-foreground">
            The prefix (CLEARBASE_ID_PREFIX), the season’s year, and the first 8 hex digits of the SHA-256 of the normalised first name, last
            name and birth date.
          </p>
        </section>
        <section className="flex flex-col gap-1.5">
          <h3 className="font-medium">Stored path</h3>
          <code className="max-w-full rounded bg-muted px-2 py-1 font-mono text-xs break-all">{installation.storedPath.format}</code>
        </section>
        <section className="flex flex-col gap-3 rounded-lg border bg-muted/30 p-4">
          <h3 className="font-medium">Worked example</h3>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-xs">
            <dt className="text-muted-foreground">Player</dt>
            <dd>
              {example.firstName} {example.lastName}, born {example.birthDate}
            </dd>
            <dt className="text-muted-foreground">Season, division</dt>
            <dd>
              {example.seasonYear}, {example.division}
            </dd>
            <dt className="text-muted-foreground">Document</dt>
            <dd>
              {example.docType}, .{example.extension}, SHA-256 {example.fileSha256.slice(0, 16)}…
            </dd>
            <dt className="text-muted-foreground">Submission</dt>
            <dd className="min-w-0 font-mono break-all">{example.submissionId}</dd>
            <dt className="text-muted-foreground">Name in paths</dt>
            <dd className="font-mono">{example.storedName}</dd>
            <dt className="text-muted-foreground">Player id</dt>
            <dd data-testid="workflow-example-player-id" className="font-mono font-semibold">
              {example.playerId}
            </dd>
          </dl>
          <div className="flex flex-col gap-1">
            <span className="text-xs text-muted-foreground">Stored as</span>
            <code data-testid="workflow-example-path" className="rounded bg-background px-2 py-1.5 font-mono text-xs break-all">
              <span className="text-muted-foreground">{folder}</span>
              <span className="font-semibold text-foreground">{fileName}</span>
            </code>
          </div>
        </section>
      </CardContent>
    </Card>
  );
}
