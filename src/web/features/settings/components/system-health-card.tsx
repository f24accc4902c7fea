import { Activity, RefreshCw } from 'lucide-react';
import { HEALTH_SERVICE_LABELS, HEALTH_SERVICES } from '../../../../contract';
import { healthStatusTone } from '@/components/health-status';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadError } from '@/components/load-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { useHealth } from '@/lib/health-query';
import { settingsHealthLabel } from '../settings-text';

/** Settings → System: every service's health, checked again on demand. */
export function SystemHealthCard() {
  const health = useHealth();
  const checkedAt = health.data ? new Date(health.data.timestamp) : undefined;

  return (
    <Card data-testid="settings-health">
      <CardHeader className="flex flex-row items-start justify-between gap-4">
        <div className="flex min-w-0 flex-col gap-1.5">
          <IconCardTitle icon={Activity}>System Health</IconCardTitle>
          <CardDescription>
            {checkedAt && !Number.isNaN(checkedAt.getTime())
              ? `Checked at ${checkedAt.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })}`
              : 'The services Clearbase depends on'}
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={() => void health.refetch()} disabled={health.isFetching}>
          <RefreshCw className={health.isFetching ? 'animate-spin' : undefined} aria-hidden="true" />
          Refresh
        </Button>
      </CardHeader>
      <CardContent>
        {health.isPending ? (
          <p role="status" className="text-sm text-muted-foreground">
            Loading system health...
          </p>
        ) : health.isError ? (
          <LoadError title="Unable to load system health" />
        ) : (
          <ul className="flex flex-col divide-y">
            {HEALTH_SERVICES.map((service) => {
              const { status, message } = health.data.services[service];
              return (
                <li key={service} data-testid={`health-${service}`} className="flex items-start justify-between gap-3 py-3 first:pt-0 last:pb-0">
                  <div className="min-w-0">
                    <p className="text-sm font-medium">{HEALTH_SERVICE_LABELS[service]}</p>
                    <p className="text-xs break-words text-muted-foreground">{message}</p>
                  </div>
                  <Badge variant={healthStatusTone(status)}>{settingsHealthLabel(status)}</Badge>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
