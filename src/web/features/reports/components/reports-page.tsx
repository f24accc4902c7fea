import { BarChart3 } from 'lucide-react';
import { PlaceholderScreen } from '@/components/placeholder-screen';

export function ReportsPage() {
  return (
    <PlaceholderScreen
      title="Reports"
      description="Completion reports by season and division"
      icon={BarChart3}
      preview="Soon you will compare seasons, see completion by document type and division, and export reports."
    />
  );
}
