import { describe, expect, it } from 'vitest';
import { UTF8_BOM } from '../../contract';
import { seasonReportFixture } from '../../web/features/reports/season-report.fixture';
import { buildReportExport, generatedText, seasonReportCsv } from './season-report-export';
import { axisStep } from './season-report-pdf';

const AT = new Date('2026-11-26T07:40:12Z');

describe('buildReportExport', () => {
  const doc = buildReportExport(seasonReportFixture(), AT);

  it('titles the report with its season, division and UTC time', () => {
    expect(doc.subtitle).toBe('Fall Ball 2025 · All Divisions');
    expect(doc.generated).toBe('Generated 26 Nov 2026, 07:40 UTC');
    expect(generatedText(new Date('2027-01-02T23:59:00Z'))).toBe('2 Jan 2027, 23:59 UTC');
  });

  it('holds the summary cards’ figures and the growth in words', () => {
    expect(doc.summary).toEqual([
      { label: 'Total Players', value: '10' },
      { label: 'Complete Profiles', value: '4' },
      { label: 'Incomplete Profiles', value: '6' },
      { label: 'Completion Rate', value: '40%' },
      { label: 'Total Documents', value: '31' },
      { label: 'Players vs Fall Ball 2024', value: '+25%' },
    ]);
    const uncompared = buildReportExport(seasonReportFixture({ summary: { ...seasonReportFixture().summary, growth: null } }), AT);
    expect(uncompared.summary).toHaveLength(5);
  });

  it('tabulates divisions, document types by state, months and the incomplete players with the screen’s words', () => {
    expect(doc.divisions.rows[0]).toEqual(['AAA', 4, 2, 2, 50]);
    expect(doc.documentTypes.columns).toEqual(['Document Type', 'Verified', 'Under Review', 'Processing', 'Missing', 'Completion %']);
    expect(doc.documentTypes.rows[2]).toEqual(['Medical', 5, 1, 0, 4, 50]);
    expect(doc.monthly.rows[0]).toEqual(['Aug 2025', 6, 1]);
    expect(doc.incompletePlayers.rows[1]).toEqual(['clearbase-2025-00000002', 'Renée "Rae" Côté, Jr', 'AAA', 75, 'Verified', 'Verified', 'Under Review', 'Verified']);
    expect(doc.unlistedPlayers).toBe('4 more incomplete players not listed here; the CSV and Excel files list them all.');
    expect(buildReportExport(seasonReportFixture({ playersTotal: 2 }), AT).unlistedPlayers).toBeNull();
  });
});

describe('seasonReportCsv', () => {
  it('starts with the byte-order mark and writes each table under its heading, a blank line between', () => {
    const lines = seasonReportCsv(buildReportExport(seasonReportFixture(), AT)).split('\r\n');
    expect(lines.slice(0, 5)).toEqual([`${UTF8_BOM}Season report,Fall Ball 2025 · All Divisions`, '"Generated 26 Nov 2026, 07:40 UTC"', '', 'Summary', 'Total Players,10']);
    const at = lines.indexOf('Completion by division');
    expect(lines.slice(at - 1, at + 3)).toEqual(['', 'Completion by division', 'Division,Players,Complete,Incomplete,Completion %', 'AAA,4,2,2,50']);
    expect(lines).toContain('clearbase-2025-00000002,"Renée ""Rae"" Côté, Jr",AAA,75,Verified,Verified,Under Review,Verified');
  });
});

describe('axisStep', () => {
  it('gives about four gridlines at 1, 2 or 5 times a power of ten', () => {
    expect([1, 4, 6, 10, 37, 180, 1234].map(axisStep)).toEqual([1, 1, 2, 5, 10, 50, 500]);
  });
});
