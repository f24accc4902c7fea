import { Braces, ChevronDown, Download, FileSpreadsheet, FileText, LoaderCircle, Sheet, type LucideIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { TReportExportFormat, TSeasonReport } from '../../../../contract';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { fetchApiFile, getErrorMessage } from '@/lib/api-client';
import { saveBlobAs } from '@/lib/download';
import { toast } from '@/lib/toast-store';
import { seasonReportExportUrl } from '../api';
import { buildReportExport, reportFilename } from '../report-export';
import type { ReportParams } from '../report-params';

type ExportChoice = TReportExportFormat | 'json';

/** The menu's choices, in its order: what each file is called on screen and what it is for. */
const CHOICES: ReadonlyArray<{ format: ExportChoice; label: string; hint: string; icon: LucideIcon }> = [
  { format: 'pdf', label: 'PDF', hint: 'Charts and tables, to print or send', icon: FileText },
  { format: 'xlsx', label: 'Excel', hint: 'One sheet per table', icon: FileSpreadsheet },
  { format: 'csv', label: 'CSV', hint: 'The tables, for any spreadsheet', icon: Sheet },
  { format: 'json', label: 'JSON', hint: 'The figures as data', icon: Braces },
];

export const EXPORT_NAMES: Record<ExportChoice, string> = { pdf: 'PDF', xlsx: 'Excel', csv: 'CSV', json: 'JSON' };

/**
 * Export Report: the report on screen as a PDF, Excel or CSV file, made by the server
 * (GET /api/reports/season/export, so every device gets the same file), or as JSON, written here. While the file
 * is made the button says so and cannot be pressed again; a failure says what went wrong in a toast.
 */
export function ExportReportButton({ report, params }: { report: TSeasonReport | undefined; params: ReportParams }) {
  const [making, setMaking] = useState<ExportChoice | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const wasMaking = useRef(false);
  // Focus goes back to the button once it can take it again (it is disabled while the file is made).
  useEffect(() => {
    if (making === null && wasMaking.current) trigger.current?.focus();
    wasMaking.current = making !== null;
  }, [making]);

  async function exportAs(format: ExportChoice): Promise<void> {
    if (!report) return;
    if (format === 'json') {
      const now = new Date();
      saveBlobAs(new Blob([`${JSON.stringify(buildReportExport(report, now), null, 2)}\n`], { type: 'application/json' }), reportFilename(report, now));
      toast({ title: 'Report Exported', description: `${report.season.name} saved as JSON.` });
      return;
    }
    setMaking(format);
    try {
      const file = await fetchApiFile(seasonReportExportUrl(params, format));
      saveBlobAs(file.blob, file.fileName ?? reportFilename(report, new Date()).replace(/json$/, format));
      toast({ title: 'Report Exported', description: `${report.season.name} saved as ${EXPORT_NAMES[format]}.` });
    } catch (error) {
      toast({
        title: 'Export Failed',
        description: getErrorMessage(error, `The ${EXPORT_NAMES[format]} file could not be made. Check the connection and try again.`),
        variant: 'destructive',
      });
    } finally {
      setMaking(null);
    }
  }

  return (
    <>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button ref={trigger} variant="outline" disabled={!report || making !== null} aria-busy={making !== null} data-testid="export-report">
            {making ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
            {making ? `Making the ${EXPORT_NAMES[making]}…` : 'Export Report'}
            {making ? null : <ChevronDown className="opacity-60" aria-hidden="true" />}
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-64 max-w-[calc(100vw-2rem)]" data-testid="export-report-menu">
          <DropdownMenuLabel>Export {report ? report.season.name : 'the report'} as</DropdownMenuLabel>
          <DropdownMenuSeparator />
          {CHOICES.map(({ format, label, hint, icon: Icon }) => (
            <DropdownMenuItem key={format} onSelect={() => void exportAs(format)} data-format={format} className="items-start py-2">
              <Icon aria-hidden="true" />
              <span className="flex flex-col">
                <span className="font-medium">{label}</span>
                <span className="text-xs text-muted-foreground">{hint}</span>
              </span>
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
      {/* Read out when a file starts and stops being made; the button's own text changes with it. */}
      <span role="status" className="sr-only">
        {making ? `Making the ${EXPORT_NAMES[making]} file of the report…` : ''}
      </span>
    </>
  );
}
