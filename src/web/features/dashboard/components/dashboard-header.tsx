import { Bell, RefreshCw, Settings } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { TSeason } from '../../../../contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SearchInput } from '@/components/ui/search-input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { notificationsLabel, notificationsBadgeText, playersSearchHref } from '../dashboard-header-text';

interface DashboardHeaderProps {
  /** Undefined while the seasons load. */
  seasons: readonly TSeason[] | undefined;
  /** The season id shown as chosen; undefined until it is known. */
  seasonId: string | undefined;
  onSeasonChange: (seasonId: string) => void;
  /** The name of the season the figures are for; undefined while loading. */
  seasonName: string | undefined;
  /** Documents awaiting review (stats.pendingReview); undefined while loading. */
  pendingReview: number | undefined;
  refreshing: boolean;
  onRefresh: () => void;
}

/** The dashboard's header: title, season badge and select, search, notifications, refresh, settings. */
export function DashboardHeader({ seasons, seasonId, onSeasonChange, seasonName, pendingReview, refreshing, onRefresh }: DashboardHeaderProps) {
  const [, navigate] = useLocation();
  const [search, setSearch] = useState('');

  const submitSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    navigate(playersSearchHref(search));
  };
  const badgeText = notificationsBadgeText(pendingReview);

  return (
    <div className="mb-6 flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Dashboard</h1>
        {seasonName ? (
          <Badge variant="secondary" data-testid="season-badge" className="text-sm">
            {seasonName}
          </Badge>
        ) : (
          <Skeleton className="h-6 w-28" />
        )}
        <p className="w-full text-sm text-muted-foreground">Registration documents at a glance</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {/* Phone: season and buttons on one row, the search on its own; wider: all on one row. */}
        <Select value={seasonId ?? ''} onValueChange={onSeasonChange} disabled={!seasons || seasons.length === 0}>
          <SelectTrigger aria-label="Season" className="w-auto min-w-0 flex-1 sm:w-52 sm:flex-none" data-testid="season-select">
            <SelectValue placeholder="Loading seasons…" />
          </SelectTrigger>
          <SelectContent>
            {(seasons ?? []).map((season) => (
              <SelectItem key={season.id} value={season.id}>
                {season.name}
                {season.isCurrent ? ' (current)' : ''}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <form role="search" aria-label="Players and documents" onSubmit={submitSearch} className="order-last w-full min-w-0 sm:order-none sm:w-auto sm:flex-1">
          <SearchInput
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search players, documents..."
            aria-label="Search players, documents"
          />
        </form>
        <div className="flex items-center gap-2">
          <Button asChild variant="outline" size="icon" className="relative">
            <Link href="/documents?status=pending" aria-label={notificationsLabel(pendingReview)} data-testid="notifications-button">
              <Bell aria-hidden="true" />
              {badgeText ? (
                <span
                  data-testid="notifications-count"
                  aria-hidden="true"
                  className="absolute -top-2 -right-2 flex h-5 min-w-5 items-center justify-center rounded-full bg-destructive px-1 text-[11px] leading-none font-semibold text-white tabular-nums"
                >
                  {badgeText}
                </span>
              ) : null}
            </Link>
          </Button>
          <Button
            variant="outline"
            size="icon"
            aria-label="Refresh dashboard"
            // aria-disabled, not disabled: the button keeps focus while the figures reload.
            aria-disabled={refreshing}
            onClick={() => {
              if (!refreshing) onRefresh();
            }}
            data-testid="refresh-button"
            data-refreshing={refreshing}
          >
            <RefreshCw className={cn(refreshing && 'animate-spin')} aria-hidden="true" />
          </Button>
          <Button asChild variant="outline" size="icon">
            <Link href="/settings" aria-label="System settings">
              <Settings aria-hidden="true" />
            </Link>
          </Button>
        </div>
      </div>
    </div>
  );
}
