import { describe, expect, it } from 'vitest';
import { findDate, findDates, toIsoDate } from './dates';

describe('findDates', () => {
  it.each([
    ['12/09/2014', '2014-12-09'],
    ['12-09-2014', '2014-12-09'],
    ['12.09.2014', '2014-12-09'],
    ['12 / 09 / 2014', '2014-12-09'],
    ['2014-12-09', '2014-12-09'],
    ['9 December 2014', '2014-12-09'],
    ['December 9, 2014', '2014-12-09'],
    ['9th of December, 2014', '2014-12-09'],
    ['DEC 09 2014', '2014-12-09'],
    ['09-DEC-2014', '2014-12-09'],
    ['09 Dec 2014', '2014-12-09'],
    ['Dec. 9th, 2014', '2014-12-09'],
    ['3 Sept 2021', '2021-09-03'],
  ])('reads %s', (text, iso) => {
    expect(findDate(`Date of birth: ${text} Sex: F`)).toBe(iso);
  });

  it('reads a numeric date month first, unless the first number cannot be a month', () => {
    expect(findDate('04/03/2016')).toBe('2016-04-03');
    expect(findDate('30/04/2016')).toBe('2016-04-30');
  });

  it('reads two-digit years as this century up to 69', () => {
    expect(findDate('12/09/14')).toBe('2014-12-09');
    expect(findDate('12/09/85')).toBe('1985-12-09');
  });

  it('tolerates the letters OCR reads in place of digits', () => {
    expect(findDate('DOB: l2/O9/2O14')).toBe('2014-12-09');
    expect(findDate('Date: 1S/03/20I6')).toBe('2016-03-15');
    expect(findDate('DOB12/09/2014')).toBe('2014-12-09');
  });

  it('tolerates one OCR slip in a long month name', () => {
    expect(findDate('Decernber 9, 2014')).toBe('2014-12-09');
    expect(findDate('9 Septernber 2014')).toBe('2014-09-09');
    expect(findDate('9 Februay 2014')).toBe('2014-02-09');
  });

  it('refuses impossible dates', () => {
    expect(findDate('02/31/2014')).toBeNull();
    expect(findDate('31 Feb 2014')).toBeNull();
    expect(findDate('29 Feb 2015')).toBeNull();
    expect(findDate('29 Feb 2016')).toBe('2016-02-29');
    expect(findDate('13/13/2014')).toBeNull();
  });

  it('does not read numbers that are not dates', () => {
    expect(findDates('Account 555-123-4567, amount 12.50, Box 12 2014, DOB:')).toEqual([]);
    expect(findDate('Invoice 1234/12/09/2014')).toBeNull();
    expect(findDate('Hotel December 2014')).toBeNull();
  });

  it('finds every date in order with where it is', () => {
    const text = 'Born 9 December 2014, filed 12/20/2014 and 2015-01-05.';
    const dates = findDates(text);
    expect(dates.map((d) => d.iso)).toEqual(['2014-12-09', '2014-12-20', '2015-01-05']);
    expect(text.slice(dates[1]?.index, dates[1]?.end)).toBe('12/20/2014');
  });
});

describe('toIsoDate', () => {
  it('writes a real day, and refuses one that is not', () => {
    expect(toIsoDate(2016, 4, 30)).toBe('2016-04-30');
    expect(toIsoDate(2016, 4, 31)).toBeNull();
    expect(toIsoDate(1850, 1, 1)).toBeNull();
  });
});
