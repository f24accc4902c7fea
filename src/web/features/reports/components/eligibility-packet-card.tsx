import { FileDown, LoaderCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { ELIGIBILITY_PACKET_PATH, eligibilityPacketFileName, inDivisionScope, type TDivision, type TSeasonRef } from '../../../../contract';
import { LabelledSelect } from '@/components/labelled-select';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { fetchApiFile, getErrorMessage } from '@/lib/api-client';
import { saveBlobAs } from '@/lib/download';
import { useSeasons } from '@/lib/seasons-query';
import { usePermissions } from '@/lib/session-api';
import { toast } from '@/lib/toast-store';

/** A division's name is its label. */
const DIVISION_NAMES: Record<TDivision, string> = { AAA: 'AAA', AA: 'AA', A: 'A', TEST: 'TEST', Peewee: 'Peewee' };

/** GET /api/reports/eligibility.pdf for a season and division. */
export const eligibilityPacketUrl = (seasonId: string, division: TDivision): string =>
  `${ELIGIBILITY_PACKET_PATH}?${new URLSearchParams({ season: seasonId, division }).toString()}`;

/**
 * Eligibility packet: a division's roster for the season on screen, with dates of birth, league ages and who
 * verified each document, as a PDF made by the server to print for the district. The divisions offered are the
 * season's, within the person's own.
 */
export function EligibilityPacketCard({ season }: { season: TSeasonRef | undefined }) {
  const id = useId();
  const { principal } = usePermissions();
  const seasons = useSeasons().data?.seasons ?? [];
  const offered = seasons.find((s) => s.id === season?.id)?.divisions ?? [];
  const divisions = principal ? offered.filter((division) => inDivisionScope(principal, division)) : [];
  const [chosen, setChosen] = useState<TDivision | undefined>(undefined);
  const division = chosen !== undefined && divisions.includes(chosen) ? chosen : divisions[0];
  const [making, setMaking] = useState(false);

  async function download(): Promise<void> {
    if (!season || !division) return;
    setMaking(true);
    try {
      const file = await fetchApiFile(eligibilityPacketUrl(season.id, division));
      saveBlobAs(file.blob, file.fileName ?? eligibilityPacketFileName(division, season.id));
      toast({ title: 'Eligibility Packet Saved', description: `${division}, ${season.name} saved as PDF.` });
    } catch (error) {
      toast({
        title: 'Download Failed',
        description: getErrorMessage(error, 'The eligibility packet could not be made. Check the connection and try again.'),
        variant: 'destructive',
      });
    } finally {
      setMaking(false);
    }
  }

  return (
    <Card className="min-w-0 gap-4 py-5" data-testid="eligibility-packet">
      <CardHeader className="flex flex-col gap-1.5 px-4 sm:px-6">
        <CardTitle className="text-base">Eligibility packet</CardTitle>
        <CardDescription>
          {season
            ? `A division’s players in ${season.name} by last name, with date of birth, league age and who verified each document, to print.`
            : 'A division’s players by last name, with date of birth, league age and who verified each document, to print.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="px-4 sm:px-6">
        {season && divisions.length === 0 && seasons.length > 0 ? (
          <p className="text-sm text-muted-foreground">{season.name} has none of your divisions.</p>
        ) : (
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            {division ? (
              <LabelledSelect
                id={`${id}-division`}
                label="Division"
                value={division}
                options={divisions}
                labels={DIVISION_NAMES}
                onChange={setChosen}
                className="flex min-w-0 flex-col gap-2 sm:w-48"
              />
            ) : null}
            <Button type="button" onClick={() => void download()} disabled={!season || !division || making} aria-busy={making} className="w-full sm:w-auto" data-testid="eligibility-download">
              {making ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <FileDown aria-hidden="true" />}
              {making ? 'Making the PDF…' : 'Download PDF'}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
