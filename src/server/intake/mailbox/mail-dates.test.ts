import { describe, expect, it } from 'vitest';
import { readPlayerDetails } from './mail-fields';
import { body, JANE, mail, read } from './mail.fixture';

describe('readPlayerDetails reads dates of birth', () => {
  it.each([
    ['2015-03-02', '2015-03-02'],
    ['2015/03/02', '2015-03-02'],
    ['2015-3-2', '2015-03-02'],
    ['03/02/2015', '2015-03-02'],
    ['3/2/2015', '2015-03-02'],
    ['03-02-2015', '2015-03-02'],
    ['12/31/2014', '2014-12-31'],
    ['2 March 2015', '2015-03-02'],
    ['02 Mar 2015', '2015-03-02'],
    ['2nd March 2015', '2015-03-02'],
    ['2nd of March, 2015', '2015-03-02'],
    ['March 2, 2015', '2015-03-02'],
    ['March 2 2015', '2015-03-02'],
    ['Mar. 2nd, 2015', '2015-03-02'],
    ['march 2, 2015', '2015-03-02'],
    ['Sept 9, 2016', '2016-09-09'],
    ['September 9, 2016', '2016-09-09'],
    ['Monday, March 2, 2015', '2015-03-02'],
    ['03/02/2015 (age 10)', '2015-03-02'],
    ['2016-02-29', '2016-02-29'],
    ['2025-09-01', '2025-09-01'],
  ])('reads %j as %s', (value, birthDate) => {
    expect(read({ text: body({ birthDate: `DOB: ${value}` }) })).toEqual({ ...JANE, birthDate });
  });

  it.each([
    ['2015-02-30', 'Date of birth "2015-02-30" is not a real date'],
    ['2015-13-01', 'Date of birth "2015-13-01" is not a real date'],
    ['2015-02-29', 'Date of birth "2015-02-29" is not a real date'],
    ['25/03/2015', 'Date of birth "25/03/2015" is not a real date (dates are read as MM/DD/YYYY)'],
    ['02/30/2015', 'Date of birth "02/30/2015" is not a real date (dates are read as MM/DD/YYYY)'],
    ['31 April 2015', 'Date of birth "31 April 2015" is not a real date'],
    ['February 30, 2015', 'Date of birth "February 30, 2015" is not a real date'],
    ['2025-09-02', 'Date of birth "2025-09-02" is in the future'],
    ['1899-12-31', 'Date of birth "1899-12-31" is before 1900'],
    ['3/2/15', 'Date of birth "3/2/15" is not a date; write it as YYYY-MM-DD or MM/DD/YYYY'],
    ['02.03.2015', 'Date of birth "02.03.2015" is not a date; write it as YYYY-MM-DD or MM/DD/YYYY'],
    ['2015', 'Date of birth "2015" is not a date; write it as YYYY-MM-DD or MM/DD/YYYY'],
    ['next spring', 'Date of birth "next spring" is not a date; write it as YYYY-MM-DD or MM/DD/YYYY'],
    ['Marchember 2, 2015', 'Date of birth "Marchember 2, 2015" is not a date; write it as YYYY-MM-DD or MM/DD/YYYY'],
  ])('refuses %j', (value, error) => {
    expect(read({ text: body({ birthDate: `DOB: ${value}` }) })).toBe(error);
  });

  it('bounds the date by today, which defaults to the clock', () => {
    const result = readPlayerDetails(mail({ text: body({ birthDate: 'DOB: 2999-01-01' }) }));
    expect(result).toMatchObject({ ok: false, error: 'Date of birth "2999-01-01" is in the future' });
  });
});
