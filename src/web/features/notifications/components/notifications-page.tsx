import { Bell } from 'lucide-react';
import { PlaceholderScreen } from '@/components/placeholder-screen';

export function NotificationsPage() {
  return (
    <PlaceholderScreen
      title="Notifications"
      description="Messages to parents and staff"
      icon={Bell}
      preview="Soon you will send reminders, manage message templates and review what was sent."
    />
  );
}
