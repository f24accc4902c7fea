import { History, LayoutTemplate, Send, Settings2, type LucideIcon } from 'lucide-react';
import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';
import { PageHeader } from '@/components/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { usePermissions } from '@/lib/session-api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { chooseNotificationTab, notificationTabs, type NotificationTab } from '../notification-tabs';
import { HistoryTab } from './history-tab';
import { SendTab } from './send-tab';
import { SettingsTab } from './settings-tab';
import { TemplatesTab } from './templates-tab';

const TAB_LABELS: Record<NotificationTab, { label: string; icon: LucideIcon }> = {
  send: { label: 'Send', icon: Send },
  templates: { label: 'Templates', icon: LayoutTemplate },
  history: { label: 'History', icon: History },
  settings: { label: 'Settings', icon: Settings2 },
};

/**
 * The tab and the History page live in the query string (?tab=history&page=2): a reload or a link keeps them.
 * The role's first tab is the default, left out of the URL; a tab the role does not have shows the first.
 */
function useUrlTab(tabs: readonly NotificationTab[]) {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const tab = chooseNotificationTab(params.get('tab'), tabs);
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const defaultTab = tabs[0];
  const go = useCallback(
    (next: { tab: NotificationTab; page?: number }) => {
      const query = new URLSearchParams();
      if (next.tab !== defaultTab) query.set('tab', next.tab);
      if (next.page && next.page > 1) query.set('page', String(next.page));
      const text = query.toString();
      navigate(text ? `${location}?${text}` : location);
    },
    [location, navigate, defaultTab],
  );
  return { tab, page, go };
}

export function NotificationsPage() {
  useDocumentTitle('Notifications');
  const { can } = usePermissions();
  const tabs = notificationTabs(can);
  const { tab, page, go } = useUrlTab(tabs);

  return (
    <>
      <PageHeader title="Notifications" description="Reminders to families and notices to staff, by e-mail, Slack or Microsoft Teams" />
      <Tabs value={tab} onValueChange={(value) => go({ tab: chooseNotificationTab(value, tabs) })} className="flex flex-col gap-4">
        <TabsList className="w-full sm:w-fit" aria-label="Notifications">
          {tabs.map((entry) => {
            const { label, icon: Icon } = TAB_LABELS[entry];
            return (
              <TabsTrigger key={entry} value={entry}>
                <Icon aria-hidden="true" className="hidden sm:block" />
                {label}
              </TabsTrigger>
            );
          })}
        </TabsList>
        {tabs.includes('send') ? (
          <TabsContent value="send">
            <SendTab onShowHistory={() => go({ tab: 'history' })} />
          </TabsContent>
        ) : null}
        <TabsContent value="templates">
          <TemplatesTab />
        </TabsContent>
        <TabsContent value="history">
          <HistoryTab page={page} onPageChange={(next) => go({ tab: 'history', page: next })} />
        </TabsContent>
        <TabsContent value="settings">
          <SettingsTab />
        </TabsContent>
      </Tabs>
    </>
  );
}
