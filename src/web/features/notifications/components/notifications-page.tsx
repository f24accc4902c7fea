import { History, LayoutTemplate, Send, Settings2 } from 'lucide-react';
import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';
import { PageHeader } from '@/components/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useDocumentTitle } from '@/lib/use-document-title';
import { HistoryTab } from './history-tab';
import { SendTab } from './send-tab';
import { SettingsTab } from './settings-tab';
import { TemplatesTab } from './templates-tab';

const TABS = ['send', 'templates', 'history', 'settings'] as const;
type Tab = (typeof TABS)[number];

/** The tab and the History page live in the query string (?tab=history&page=2): a reload or a link keeps them. */
function useUrlTab() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const requested = params.get('tab');
  const tab: Tab = TABS.find((t) => t === requested) ?? 'send';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const go = useCallback(
    (next: { tab: Tab; page?: number }) => {
      const query = new URLSearchParams();
      if (next.tab !== 'send') query.set('tab', next.tab);
      if (next.page && next.page > 1) query.set('page', String(next.page));
      const text = query.toString();
      navigate(text ? `${location}?${text}` : location);
    },
    [location, navigate],
  );
  return { tab, page, go };
}

export function NotificationsPage() {
  useDocumentTitle('Notifications');
  const { tab, page, go } = useUrlTab();

  return (
    <>
      <PageHeader title="Notifications" description="Reminders to families and notices to staff, by e-mail, Slack or Microsoft Teams" />
      <Tabs value={tab} onValueChange={(value) => go({ tab: TABS.find((t) => t === value) ?? 'send' })} className="flex flex-col gap-4">
        <TabsList className="w-full sm:w-fit" aria-label="Notifications">
          <TabsTrigger value="send">
            <Send aria-hidden="true" className="hidden sm:block" />
            Send
          </TabsTrigger>
          <TabsTrigger value="templates">
            <LayoutTemplate aria-hidden="true" className="hidden sm:block" />
            Templates
          </TabsTrigger>
          <TabsTrigger value="history">
            <History aria-hidden="true" className="hidden sm:block" />
            History
          </TabsTrigger>
          <TabsTrigger value="settings">
            <Settings2 aria-hidden="true" className="hidden sm:block" />
            Settings
          </TabsTrigger>
        </TabsList>
        <TabsContent value="send">
          <SendTab onShowHistory={() => go({ tab: 'history' })} />
        </TabsContent>
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
