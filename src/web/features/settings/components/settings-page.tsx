import { Settings } from 'lucide-react';
import { ComingSoonCard } from '@/components/coming-soon-card';
import { PageHeader } from '@/components/page-header';
import { MailboxIntakeCard } from '@/features/mailbox/components/mailbox-intake-card';
import { useDocumentTitle } from '@/lib/use-document-title';

export function SettingsPage() {
  useDocumentTitle('System Settings');
  return (
    <>
      <PageHeader title="System Settings" description="Integrations, notifications and security" />
      <div className="flex flex-col gap-6">
        <section aria-labelledby="settings-integrations" className="flex flex-col gap-4">
          <h2 id="settings-integrations" className="text-lg font-semibold">
            Integrations
          </h2>
          <MailboxIntakeCard />
        </section>
        <ComingSoonCard icon={Settings}>
          The rest of this screen is being built. Soon you will check service health, connect storage and adjust
          notification and security options.
        </ComingSoonCard>
      </div>
    </>
  );
}
