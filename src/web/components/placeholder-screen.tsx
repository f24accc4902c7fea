import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '@/lib/use-document-title';
import { ComingSoonCard } from './coming-soon-card';
import { PageHeader } from './page-header';

interface PlaceholderScreenProps {
  title: string;
  description: string;
  icon: LucideIcon;
  /** What the finished screen will offer, in a sentence or two. */
  preview: ReactNode;
}

/** A screen that is routed and titled but whose content arrives in a later release. */
export function PlaceholderScreen({ title, description, icon, preview }: PlaceholderScreenProps) {
  useDocumentTitle(title);
  return (
    <>
      <PageHeader title={title} description={description} />
      <ComingSoonCard icon={icon}>
        This screen is being built. {preview}
      </ComingSoonCard>
    </>
  );
}
