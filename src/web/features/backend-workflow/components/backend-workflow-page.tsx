import { Workflow } from 'lucide-react';
import { PlaceholderScreen } from '@/components/placeholder-screen';

export function BackendWorkflowPage() {
  return (
    <PlaceholderScreen
      title="App Workflow"
      description="How a submitted document travels through Clearbase"
      icon={Workflow}
      preview="Soon you will see every step from intake to encrypted storage, explained."
    />
  );
}
