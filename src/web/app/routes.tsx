import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Route, Switch } from 'wouter';
import { Skeleton } from '@/components/ui/skeleton';

/**
 * Each screen's feature is its own chunk, loaded on first visit: the first paint after sign-in carries the
 * shell and one screen, not the charts and tables of all ten.
 */
const screen = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): LazyExoticComponent<ComponentType> =>
  lazy(async () => ({ default: (await load())[name] }));

const DashboardPage = screen(() => import('@/features/dashboard'), 'DashboardPage');
const PlayersPage = screen(() => import('@/features/players'), 'PlayersPage');
const DocumentsPage = screen(() => import('@/features/documents'), 'DocumentsPage');
const ReviewPage = screen(() => import('@/features/review'), 'ReviewPage');
const ReportsPage = screen(() => import('@/features/reports'), 'ReportsPage');
const UploadsPage = screen(() => import('@/features/uploads'), 'UploadsPage');
const UsersPage = screen(() => import('@/features/users'), 'UsersPage');
const NotificationsPage = screen(() => import('@/features/notifications'), 'NotificationsPage');
const BackendWorkflowPage = screen(() => import('@/features/backend-workflow'), 'BackendWorkflowPage');
const SettingsPage = screen(() => import('@/features/settings'), 'SettingsPage');
const UserGuidePage = screen(() => import('@/features/user-guide'), 'UserGuidePage');
const AccountPage = screen(() => import('@/features/account'), 'AccountPage');
const NotFoundPage = screen(() => import('@/features/not-found'), 'NotFoundPage');

function ScreenLoading() {
  return (
    <div role="status" aria-label="Loading" className="flex flex-col gap-4">
      <Skeleton className="h-9 w-48" />
      <Skeleton className="h-32 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

/** The screens inside the authenticated shell, by address; each loads its code on first visit, meanwhile a skeleton shows. */
export function AppRoutes() {
  return (
    <Suspense fallback={<ScreenLoading />}>
      <Switch>
        <Route path="/" component={DashboardPage} />
        <Route path="/players" component={PlayersPage} />
        <Route path="/documents" component={DocumentsPage} />
        <Route path="/review" component={ReviewPage} />
        <Route path="/reports" component={ReportsPage} />
        <Route path="/uploads" component={UploadsPage} />
        <Route path="/users" component={UsersPage} />
        <Route path="/notifications" component={NotificationsPage} />
        <Route path="/backend-workflow" component={BackendWorkflowPage} />
        <Route path="/settings" component={SettingsPage} />
        <Route path="/user-guide" component={UserGuidePage} />
        <Route path="/account" component={AccountPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
