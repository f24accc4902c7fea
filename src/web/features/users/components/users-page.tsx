import { UserCog } from 'lucide-react';
import { PlaceholderScreen } from '@/components/placeholder-screen';

export function UsersPage() {
  return (
    <PlaceholderScreen
      title="User Management"
      description="Staff accounts and their roles"
      icon={UserCog}
      preview="Soon you will add staff, assign roles and manage their access."
    />
  );
}
