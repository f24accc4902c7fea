import { Users } from 'lucide-react';
import { PlaceholderScreen } from '@/components/placeholder-screen';

export function PlayersPage() {
  return (
    <PlaceholderScreen
      title="Players"
      description="Registration status of every player this season"
      icon={Users}
      preview="Soon you will search players, filter by season, division and status, and see each player's document completion."
    />
  );
}
