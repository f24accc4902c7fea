import type { BadgeProps } from '@/components/ui/badge';

export type HealthTone = NonNullable<BadgeProps['variant']>;

/** How the dashboard words a service's health: ok Operational, warning Degraded, anything else Error. */
export function healthStatusLabel(status: string | null | undefined): string {
  if (status === 'ok') return 'Operational';
  if (status === 'warning') return 'Degraded';
  return 'Error';
}

export function healthStatusTone(status: string | null | undefined): HealthTone {
  if (status === 'ok') return 'success';
  if (status === 'warning') return 'warning';
  return 'destructive';
}
