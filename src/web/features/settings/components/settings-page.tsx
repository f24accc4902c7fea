import { Settings } from 'lucide-react';
import { PlaceholderScreen } from '@/components/placeholder-screen';

export function SettingsPage() {
  return (
    <PlaceholderScreen
      title="System Settings"
      description="Integrations, notifications and security"
      icon={Settings}
      preview="Soon you will check service health, control mailbox intake and adjust security options."
    />
  );
}
