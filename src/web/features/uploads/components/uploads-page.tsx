import { Upload } from 'lucide-react';
import { PlaceholderScreen } from '@/components/placeholder-screen';

export function UploadsPage() {
  return (
    <PlaceholderScreen
      title="Recent Uploads"
      description="The latest documents received from every intake"
      icon={Upload}
      preview="Soon you will follow documents as they arrive from the registration form and the intake mailbox."
    />
  );
}
