import { Download } from 'lucide-react';
import type { TSeasonReport } from '../../../../contract';
import { Button } from '@/components/ui/button';
import { downloadFile } from '@/lib/csv';
import { toast } from '@/lib/toast-store';
import { buildReportExport, reportFilename } from '../report-export';

/** Saves the report on screen as JSON, named after its season and the time (no server round trip). */
export function ExportReportButton({ report }: { report: TSeasonReport | undefined }) {
  return (
    <Button
      variant="outline"
      disabled={!report}
      data-testid="export-report"
      onClick={() => {
        if (!report) return;
        const now = new Date();
        downloadFile(reportFilename(report.season.id, now), `${JSON.stringify(buildReportExport(report, now), null, 2)}\n`, 'application/json');
        toast({ title: 'Report Exported', description: `${report.season.name} saved as JSON.` });
      }}
    >
      <Download aria-hidden="true" />
      Export Report
    </Button>
  );
}
