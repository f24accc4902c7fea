import { Route, Switch } from 'wouter';
import { BackendWorkflowPage } from '@/features/backend-workflow/components/backend-workflow-page';
import { DashboardPage } from '@/features/dashboard/components/dashboard-page';
import { DocumentsPage } from '@/features/documents/components/documents-page';
import { NotFoundPage } from '@/features/not-found/components/not-found-page';
import { NotificationsPage } from '@/features/notifications/components/notifications-page';
import { PlayersPage } from '@/features/players/components/players-page';
import { ReportsPage } from '@/features/reports/components/reports-page';
import { SettingsPage } from '@/features/settings/components/settings-page';
import { UploadsPage } from '@/features/uploads/components/uploads-page';
import { UserGuidePage } from '@/features/user-guide/components/user-guide-page';
import { UsersPage } from '@/features/users/components/users-page';

/** Spec §2 routes inside the authenticated shell. */
export function AppRoutes() {
  return (
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
  );
}
