import { LoaderCircle, Play } from 'lucide-react';
import { useId, useState } from 'react';
import { LabelledSelect } from '@/components/labelled-select';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { SeasonSelect } from '@/components/season-select';
import { resolveSeason } from '@/lib/seasons';
import { useSeasons } from '@/lib/seasons-query';
import { REPORT_DIVISION_LABELS, REPORT_DIVISIONS, type ReportParams } from '../report-params';

interface ReportParametersProps {
  /** The parameters of the report on screen; the form starts from them (remount it with a key when they change). */
  applied: ReportParams;
  onGenerate: (params: ReportParams) => void;
  generating: boolean;
}

/** Season, division and comparison: edited here, applied only by Generate Report. */
export function ReportParameters({ applied, onGenerate, generating }: ReportParametersProps) {
  const id = useId();
  const [draft, setDraft] = useState<ReportParams>(applied);
  const seasons = useSeasons().data?.seasons ?? [];
  // An absent season and the current season's id are the same choice.
  const seasonOf = (params: ReportParams) => resolveSeason(seasons, params.season)?.id ?? params.season;
  const edited = seasonOf(draft) !== seasonOf(applied) || draft.division !== applied.division || draft.compare !== applied.compare;

  return (
    <Card className="py-4 sm:py-5">
      <CardContent className="flex flex-col px-3 sm:px-5">
        <form
          aria-label="Report parameters"
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_auto_auto] lg:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            onGenerate(draft);
          }}
        >
          <div className="flex min-w-0 flex-col gap-2">
            <Label htmlFor={`${id}-season`}>Season</Label>
            <SeasonSelect id={`${id}-season`} value={draft.season} onValueChange={(season) => setDraft((d) => ({ ...d, season }))} />
          </div>
          <LabelledSelect
            id={`${id}-division`}
            label="Division"
            value={draft.division}
            options={REPORT_DIVISIONS}
            labels={REPORT_DIVISION_LABELS}
            onChange={(division) => setDraft((d) => ({ ...d, division }))}
          />
          <div className="flex h-9 items-center gap-2">
            <Checkbox
              id={`${id}-compare`}
              checked={draft.compare}
              onCheckedChange={(checked) => setDraft((d) => ({ ...d, compare: checked === true }))}
            />
            <Label htmlFor={`${id}-compare`} className="font-normal">
              Compare with previous season
            </Label>
          </div>
          <Button type="submit" disabled={generating} className="w-full lg:w-auto">
            {generating ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Play aria-hidden="true" />}
            {generating ? 'Generating…' : 'Generate Report'}
          </Button>
        </form>
        {/* Always present, so screen readers announce the text when it appears; empty, it takes no room. */}
        <p className={edited ? 'mt-3 text-xs text-muted-foreground' : undefined} aria-live="polite" data-testid="report-parameters-status">
          {edited ? 'Parameters changed: Generate Report to apply them.' : ''}
        </p>
      </CardContent>
    </Card>
  );
}
