import { describe, expect, it } from 'vitest';
import type { TSeason } from '../../../contract';
import { followKindAndYear, newSeasonForm, nextSeason, seasonChanges, seasonFormFromSeason, serverSeasonErrors, validateSeasonForm } from './season-form';

const FALL_2026: TSeason = {
  id: 'fall-2026',
  name: 'Fall Ball 2026',
  kind: 'Fall Ball',
  year: 2026,
  startsOn: '2026-08-15',
  endsOn: '2026-11-30',
  registrationDeadline: '2026-09-15',
  divisions: ['AAA', 'AA', 'A'],
  isCurrent: true,
  closed: false,
  closedAt: null,
};

describe('the season form', () => {
  it('offers the season after the newest one, or with none the one about to start', () => {
    expect(nextSeason(new Date(2026, 0, 10), [FALL_2026])).toEqual({ kind: 'Spring Ball', year: 2027 });
    expect(nextSeason(new Date(2026, 0, 10), [{ kind: 'Spring Ball', year: 2026, startsOn: '2026-03-01' }])).toEqual({ kind: 'Fall Ball', year: 2026 });
    expect(nextSeason(new Date(2026, 1, 10), [])).toEqual({ kind: 'Spring Ball', year: 2026 });
    expect(nextSeason(new Date(2026, 6, 10), [])).toEqual({ kind: 'Fall Ball', year: 2026 });
    expect(nextSeason(new Date(2026, 11, 1), [])).toEqual({ kind: 'Spring Ball', year: 2027 });
  });

  it('fills a new season with the usual name, dates and every division but TEST', () => {
    expect(newSeasonForm(new Date(2026, 6, 10), [])).toEqual({
      text: { kind: 'Fall Ball', year: '2026', name: 'Fall Ball 2026', startsOn: '2026-08-15', endsOn: '2026-11-30', registrationDeadline: '2026-09-15' },
      divisions: ['AAA', 'AA', 'A', 'Peewee'],
    });
  });

  it('follows a new kind or year in the fields not typed into, and keeps what was typed', () => {
    const { text } = newSeasonForm(new Date(2026, 6, 10), []);
    expect(followKindAndYear({ ...text, kind: 'Spring Ball', year: '2027' }, new Set())).toMatchObject({
      name: 'Spring Ball 2027',
      startsOn: '2027-03-01',
      endsOn: '2027-06-30',
      registrationDeadline: '2027-03-31',
    });
    expect(followKindAndYear({ ...text, name: 'North Fall', year: '2027' }, new Set(['name']))).toMatchObject({ name: 'North Fall', startsOn: '2027-08-15' });
    // A year half typed changes nothing yet.
    expect(followKindAndYear({ ...text, year: '202' }, new Set())).toMatchObject({ year: '202', name: 'Fall Ball 2026' });
  });

  it('checks the fields with the contract, one message each', () => {
    const { text } = newSeasonForm(new Date(2026, 6, 10), []);
    expect(validateSeasonForm(text, ['AA'])).toEqual({ ok: true, season: { ...text, year: 2026, divisions: ['AA'] } });
    expect(validateSeasonForm({ ...text, year: '', name: ' ', endsOn: '2026-08-01' }, [])).toEqual({
      ok: false,
      errors: { year: 'Year is required', name: 'Name is required', divisions: 'Pick at least one division the season offers' },
    });
    expect(validateSeasonForm({ ...text, year: '20x6' }, ['AA'])).toMatchObject({ ok: false, errors: { year: 'Year must be a number such as 2026' } });
    expect(validateSeasonForm({ ...text, endsOn: '2026-08-01' }, ['AA'])).toEqual({
      ok: false,
      errors: {
        endsOn: 'End date must be after the start date (2026-08-15)',
        registrationDeadline: 'Registration deadline must be on or before the end date (2026-08-01)',
      },
    });
  });

  it('sends only what Edit changed', () => {
    const { text, divisions } = seasonFormFromSeason(FALL_2026);
    const same = validateSeasonForm(text, divisions);
    if (!same.ok) throw new Error('the season itself should be valid');
    expect(seasonChanges(FALL_2026, same.season)).toBeNull();
    const changed = validateSeasonForm({ ...text, registrationDeadline: '2026-10-01' }, ['AAA', 'AA', 'A', 'Peewee']);
    if (!changed.ok) throw new Error('the change should be valid');
    expect(seasonChanges(FALL_2026, changed.season)).toEqual({ registrationDeadline: '2026-10-01', divisions: ['AAA', 'AA', 'A', 'Peewee'] });
  });

  it('puts a refusal next to its field, or above the form when it has none', () => {
    const year = 'Fall Ball 2026 already exists as Fall Ball 2026 (id fall-2026). Edit that season instead, or pick another year.';
    expect(serverSeasonErrors({ code: 'CONFLICT', message: year, details: [{ path: 'body.year', message: year }] }, 'fallback')).toEqual({
      fields: { year },
      message: null,
    });
    expect(serverSeasonErrors({ code: 'VALIDATION_FAILED', message: 'Invalid request.', details: [{ path: 'body.divisions.1', message: 'bad' }] }, 'x')).toEqual({
      fields: { divisions: 'bad' },
      message: null,
    });
    expect(serverSeasonErrors({ code: 'FORBIDDEN', message: 'Your role does not allow this.' }, 'fallback')).toEqual({ fields: {}, message: 'Your role does not allow this.' });
    expect(serverSeasonErrors(undefined, 'fallback')).toEqual({ fields: {}, message: 'fallback' });
  });
});
