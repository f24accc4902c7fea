import { FileDown, LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { downloadFile } from '@/lib/csv';
import { fetchAllMissingRows, type MissingReportParams } from '@/lib/missing-report-query';
import { toast } from '@/lib/toast-store';
import { buildPlayersCsv, playersCsvFilename } from '../players-csv';

interface ExportPlayersButtonProps {
  /** The filters of the table on screen; every matching row is exported, not only the page shown. */
  params: MissingReportParams;
  /** Set when no players match the filters: there is nothing to export. */
  disabled: boolean;
}

/** The players CSV: every player matching the filters, one file named after the season. */
export function ExportPlayersButton({ params, disabled }: ExportPlayersButtonProps) {
  const [exporting, setExporting] = useState(false);

  async function exportCsv(): Promise<void> {
    setExporting(true);
    try {
      const report = await fetchAllMissingRows(params);
      downloadFile(playersCsvFilename(report.season.id), buildPlayersCsv(report.players));
      const count = report.players.length;
      toast({ title: 'Export Successful', description: `${count} ${count === 1 ? 'player' : 'players'} exported to CSV.` });
    } catch (error) {
      toast({ title: 'Export Failed', description: getErrorMessage(error, 'The players could not be exported.'), variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  }

  return (
    <Button variant="outline" onClick={() => void exportCsv()} disabled={disabled || exporting} data-testid="export-players-csv">
      {exporting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <FileDown aria-hidden="true" />}
      {exporting ? 'Exporting…' : 'Export CSV'}
    </Button>
  );
}
