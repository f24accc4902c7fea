import { FileText } from 'lucide-react';
import { PlaceholderScreen } from '@/components/placeholder-screen';

export function DocumentsPage() {
  return (
    <PlaceholderScreen
      title="Documents"
      description="Manage document uploads and processing status"
      icon={FileText}
      preview="Soon you will review uploaded documents, filter them, and send selected files to secure storage or export them."
    />
  );
}
