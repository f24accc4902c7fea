import { useLocation, useSearch } from 'wouter';
import { PageHeader } from '@/components/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { FormBuildersCard, FormWebhookCard } from '@/features/integrations';
import { MailboxIntakeCard } from '@/features/mailbox';
import { SeasonsCard } from '@/features/seasons';
import { useDocumentTitle } from '@/lib/use-document-title';
import { parseSettingsTab, SETTINGS_TABS } from '../settings-text';
import { BackupsCard } from './backups-card';
import { DocumentReadingCard } from './document-reading-card';
import { MasterKeyCard } from './master-key-card';
import { NotificationSettingsCard } from './notification-settings-card';
import { RejectReasonsCard } from './reject-reasons-card';
import { SecuritySettingsCard } from './security-settings-card';
import { StorageCard } from './storage-card';
import { SystemHealthCard } from './system-health-card';
import { UploadLinkSettingsCard } from './upload-link-settings-card';

/** System Settings: five tabs; the open one is in the query string (?tab=) so a link or reload keeps it. */
export function SettingsPage() {
  useDocumentTitle('System Settings');
  const search = useSearch();
  const [location, navigate] = useLocation();
  const tab = parseSettingsTab(search);

  return (
    <>
      <PageHeader title="System Settings" description="Health, seasons, integrations, notifications and security" />
      <Tabs
        value={tab}
        onValueChange={(next) => navigate(next === 'system' ? location : `${location}?tab=${next}`, { replace: true })}
        className="flex flex-col gap-6"
      >
        <TabsList aria-label="Settings sections" className="grid h-auto w-full grid-cols-3 gap-1 sm:inline-flex sm:h-9 sm:w-fit sm:gap-0">
          {SETTINGS_TABS.map((entry) => (
            <TabsTrigger key={entry.value} value={entry.value}>
              {entry.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="system" className="flex flex-col gap-6">
          <SystemHealthCard />
          <DocumentReadingCard />
          <RejectReasonsCard />
          <BackupsCard />
        </TabsContent>
        <TabsContent value="seasons" className="flex flex-col gap-6">
          <SeasonsCard />
        </TabsContent>
        <TabsContent value="integrations" className="flex flex-col gap-6">
          <FormWebhookCard />
          <MailboxIntakeCard />
          <FormBuildersCard />
          <StorageCard />
        </TabsContent>
        <TabsContent value="notifications" className="flex flex-col gap-6">
          <NotificationSettingsCard />
          <UploadLinkSettingsCard />
        </TabsContent>
        <TabsContent value="security" className="flex flex-col gap-6">
          <SecuritySettingsCard />
          <MasterKeyCard />
        </TabsContent>
      </Tabs>
    </>
  );
}
