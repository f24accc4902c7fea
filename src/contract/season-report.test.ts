import { describe, expect, it } from 'vitest';
import { ZSeasonReportExportQuery, seasonReportFileName } from './season-report';

const AT = new Date('2026-11-24T13:05:59.250Z');

describe('seasonReportFileName', () => {
  it('names the season, the division when it is one, and the UTC minute', () => {
    expect(seasonReportFileName('fall-2025', 'all', AT, 'pdf')).toBe('clearbase-report-fall-2025-20261124T1305Z.pdf');
    expect(seasonReportFileName('fall-2025', 'Peewee', AT, 'xlsx')).toBe('clearbase-report-fall-2025-peewee-20261124T1305Z.xlsx');
    expect(seasonReportFileName('Fall Ball 2025', 'AA', AT, 'csv')).toBe('clearbase-report-fall-ball-2025-aa-20261124T1305Z.csv');
  });
});

describe('ZSeasonReportExportQuery', () => {
  it('takes the report parameters and a format, and refuses any other format', () => {
    expect(ZSeasonReportExportQuery.parse({ format: 'pdf' })).toEqual({ division: 'all', compare: true, format: 'pdf' });
    expect(ZSeasonReportExportQuery.safeParse({ format: 'docx' }).error?.issues[0]?.message).toBe('must be pdf, csv or xlsx');
    expect(ZSeasonReportExportQuery.safeParse({}).success).toBe(false);
  });
});
