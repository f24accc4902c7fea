import { BookOpen } from 'lucide-react';
import { PlaceholderScreen } from '@/components/placeholder-screen';

export function UserGuidePage() {
  return (
    <PlaceholderScreen
      title="User Guide"
      description="A step-by-step tour of Clearbase"
      icon={BookOpen}
      preview="Soon a guided tour will walk you through every screen, one step at a time."
    />
  );
}
