import { HardDrive } from 'lucide-react';
import type { TInstallation } from '../../../../contract';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { shownOrHidden } from '@/components/read-only-text';
import { formatBytes } from '@/lib/format';
import { useInstallation } from '@/lib/system-settings-query';
import { STORAGE_DRIVER_LABELS, storageUsage } from '../settings-text';

/** Settings → Integrations: where documents are stored, and how much is there (from the documents table). */
export function StorageCard() {
  const installation = useInstallation();

  return (
    <Card data-testid="storage-card">
      <CardHeader>
        <IconCardTitle icon={HardDrive}>Storage</IconCardTitle>
        <CardDescription>Every file is encrypted (AES-256) before it is written. Set with STORAGE_DRIVER when the server starts.</CardDescription>
      </CardHeader>
      <CardContent>
        {installation.isPending ? (
          <LoadingState label="Loading storage" className="flex flex-col gap-3">
            <Skeleton className="h-4 w-48" />
            <Skeleton className="h-4 w-full max-w-md" />
            <Skeleton className="h-4 w-40" />
          </LoadingState>
        ) : installation.isError ? (
          <LoadError title={`Unable to load storage: ${getErrorMessage(installation.error)}`} />
        ) : (
          <StorageFigures storage={installation.data.storage} usage={storageUsage(installation.data.storage)} />
        )}
      </CardContent>
    </Card>
  );
}

/** The storage as a role may receive it: the location may be absent or null for a role that cannot manage settings. */
type ShownStorage = Omit<TInstallation['storage'], 'location'> & { location?: string | null };

function StorageFigures({ storage, usage }: { storage: ShownStorage; usage: ReturnType<typeof storageUsage> }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
      <dt className="text-muted-foreground">Driver</dt>
      <dd data-testid="storage-driver" data-driver={storage.driver} className="font-medium">
        {STORAGE_DRIVER_LABELS[storage.driver]}
      </dd>
      <dt className="text-muted-foreground">Location</dt>
      {/* The folder or bucket is left out by the server for a role that cannot manage settings. */}
      <dd data-testid="storage-location" className={storage.location ? 'min-w-0 font-mono text-xs break-all' : 'text-muted-foreground'}>
        {shownOrHidden(storage.location)}
      </dd>
      <dt className="text-muted-foreground">Documents stored</dt>
      <dd data-testid="storage-documents" data-value={usage.documents}>
        {usage.documents.toLocaleString()}
      </dd>
      <dt className="text-muted-foreground">Size</dt>
      <dd data-testid="storage-bytes" data-value={usage.bytes}>
        {formatBytes(usage.bytes)}
      </dd>
      {usage.elsewhere ? (
        <dd className="text-xs text-muted-foreground sm:col-span-2">
          {usage.elsewhere.documents.toLocaleString()} earlier documents remain in {STORAGE_DRIVER_LABELS[usage.elsewhere.driver].toLowerCase()}.
        </dd>
      ) : null}
    </dl>
  );
}
