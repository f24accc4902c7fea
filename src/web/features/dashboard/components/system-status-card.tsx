import { Activity, ArrowRight, Database, HardDrive, Mail, ShieldCheck, Webhook, type LucideIcon } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { HEALTH_SERVICE_LABELS, HEALTH_SERVICES, type THealthServiceName } from '../../../../contract';
import { healthStatusLabel, healthStatusTone } from '@/components/health-status';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadError } from '@/components/load-error';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { useHealth } from '@/lib/health-query';
import { cn } from '@/lib/utils';
import { CARD_LINK_CLASS, CLICKABLE_CARD_CLASS, clickedControl } from './clickable-card';
import { ListSkeleton } from '@/components/list-skeleton';

const SERVICE_ICONS: Record<THealthServiceName, LucideIcon> = {
  database: Database,
  s3: HardDrive,
  form: Webhook,
  gmail: Mail,
  antivirus: ShieldCheck,
};

function formatCheckedAt(timestamp: string): string | null {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/** System Status: one line per service; a click opens System Settings, where services are set up. */
export function SystemStatusCard() {
  const health = useHealth();
  const [, navigate] = useLocation();
  const checkedAt = health.data ? formatCheckedAt(health.data.timestamp) : null;

  return (
    <Card
      data-testid="system-status"
      className={CLICKABLE_CARD_CLASS}
      onClick={(event) => {
        if (!clickedControl(event)) navigate('/settings');
      }}
    >
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="flex flex-col gap-1.5">
          <IconCardTitle icon={Activity}>System Status</IconCardTitle>
          <CardDescription>{checkedAt ? `Last checked at ${checkedAt}` : 'Health of Clearbase services'}</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        {health.isPending ? (
          <ListSkeleton label="Loading system status" rows={HEALTH_SERVICES.length} leading="size-8 rounded-md" lines={['h-3.5 w-28', 'h-3 w-40 max-w-full']} trailing="h-5 w-20" />
        ) : health.isError ? (
          <LoadError title="Unable to load system status" onRetry={() => void health.refetch()} retrying={health.isFetching} />
        ) : (
          <ul className="flex flex-col divide-y">
            {HEALTH_SERVICES.map((service) => {
              const { status, message } = health.data.services[service];
              const Icon = SERVICE_ICONS[service];
              return (
                <li key={service} className="flex items-center gap-3 py-3 first:pt-0 last:pb-0">
                  <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-secondary text-secondary-foreground">
                    <Icon className="size-4" aria-hidden="true" />
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-medium">{HEALTH_SERVICE_LABELS[service]}</p>
                    <p className="text-xs break-words text-muted-foreground">{message}</p>
                  </div>
                  <Badge variant={healthStatusTone(status)}>{healthStatusLabel(status)}</Badge>
                </li>
              );
            })}
          </ul>
        )}
        <Link
          href="/settings"
          className={cn('mt-4', CARD_LINK_CLASS)}
        >
          Open system settings
          <ArrowRight className="size-3.5" aria-hidden="true" />
        </Link>
      </CardContent>
    </Card>
  );
}
