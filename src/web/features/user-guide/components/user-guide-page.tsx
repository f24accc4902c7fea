import { BookOpen } from 'lucide-react';
import { ComingSoonCard } from '@/components/coming-soon-card';
import { PageHeader } from '@/components/page-header';
import { EmailSubmissionGuide } from '@/features/mailbox/components/email-submission-guide';
import { useDocumentTitle } from '@/lib/use-document-title';

export function UserGuidePage() {
  useDocumentTitle('User Guide');
  return (
    <>
      <PageHeader title="User Guide" description="A step-by-step tour of Clearbase" />
      <div className="flex flex-col gap-6">
        <EmailSubmissionGuide />
        <ComingSoonCard icon={BookOpen}>
          This screen is being built. Soon a guided tour will walk you through every screen, one step at a time.
        </ComingSoonCard>
      </div>
    </>
  );
}
