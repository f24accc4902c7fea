import { LayoutDashboard } from 'lucide-react';
import { ComingSoonCard } from '@/components/coming-soon-card';
import { PageHeader } from '@/components/page-header';
import { GmailIntakePanel } from '@/features/mailbox/components/gmail-intake-panel';
import { useDocumentTitle } from '@/lib/use-document-title';
import { SystemStatusCard } from './system-status-card';

export function DashboardPage() {
  useDocumentTitle('Dashboard');
  return (
    <>
      <PageHeader title="Dashboard" description="Registration documents at a glance" />
      <div className="flex flex-col gap-6">
        <GmailIntakePanel />
        <div className="grid items-start gap-6 lg:grid-cols-5">
          <ComingSoonCard icon={LayoutDashboard} className="min-w-0 lg:col-span-3" title="More dashboard panels are on the way">
            This screen is being built. Player and document totals, recent uploads and the document status overview
            will appear here in a later release.
          </ComingSoonCard>
          <div className="min-w-0 lg:col-span-2">
            <SystemStatusCard />
          </div>
        </div>
      </div>
    </>
  );
}
