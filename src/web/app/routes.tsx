import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Route, Switch } from 'wouter';
import { Skeleton } from '@/components/ui/skeleton';

/**
 * Each screen is its own chunk, loaded on first visit: the first paint after sign-in carries the shell
 * and one screen, not the charts and tables of all ten.
 */
const screen = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): LazyExoticComponent<ComponentType> =>
  lazy(async () => ({ default: (await load())[name] }));

const DashboardPage = screen(() => import('@/features/dashboard/components/dashboard-page'), 'DashboardPage');
const PlayersPage = screen(() => import('@/features/players/components/players-page'), 'PlayersPage');
const DocumentsPage = screen(() => import('@/features/documents/components/documents-page'), 'DocumentsPage');
const ReportsPage = screen(() => import('@/features/reports/components/reports-page'), 'ReportsPage');
const UploadsPage = screen(() => import('@/features/uploads/components/uploads-page'), 'UploadsPage');
const UsersPage = screen(() => import('@/features/users/components/users-page'), 'UsersPage');
const NotificationsPage = screen(() => import('@/features/notifications/components/notifications-page'), 'NotificationsPage');
const BackendWorkflowPage = screen(() => import('@/features/backend-workflow/components/backend-workflow-page'), 'BackendWorkflowPage');
const SettingsPage = screen(() => import('@/features/settings/components/settings-page'), 'SettingsPage');
const UserGuidePage = screen(() => import('@/features/user-guide/components/user-guide-page'), 'UserGuidePage');
const NotFoundPage = screen(() => import('@/features/not-found/components/not-found-page'), 'NotFoundPage');

function ScreenLoading() {
  return (
    <div role="status" aria-label="Loading" className="flex flex-col gap-4">
      <Skeleton className="h-9 w-48" />
      <Skeleton className="h-32 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

/** Spec §2 routes inside the authenticated shell. */
export function AppRoutes() {
  return (
    <Suspense fallback={<ScreenLoading />}>
      <Switch>
        <Route path="/" component={DashboardPage} />
        <Route path="/players" component={PlayersPage} />
        <Route path="/documents" component={DocumentsPage} />
        <Route path="/reports" component={ReportsPage} />
        <Route path="/uploads" component={UploadsPage} />
        <Route path="/users" component={UsersPage} />
        <Route path="/notifications" component={NotificationsPage} />
        <Route path="/backend-workflow" component={BackendWorkflowPage} />
        <Route path="/settings" component={SettingsPage} />
        <Route path="/user-guide" component={UserGuidePage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
