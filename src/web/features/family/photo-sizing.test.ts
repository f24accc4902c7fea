import { describe, expect, it } from 'vitest';
import { fitWithin, PHOTO_MAX_LONG_SIDE, photoFileName } from './photo-sizing';

describe('fitWithin', () => {
  it('brings a landscape phone photo down to 2000 px on its long side, keeping its proportions', () => {
    expect(fitWithin({ width: 4032, height: 3024 })).toEqual({ width: 2000, height: 1500 });
  });

  it('brings a portrait photo down by its height', () => {
    expect(fitWithin({ width: 3024, height: 4032 })).toEqual({ width: 1500, height: 2000 });
  });

  it('never enlarges a photo already small enough', () => {
    expect(fitWithin({ width: 1200, height: 900 })).toEqual({ width: 1200, height: 900 });
    expect(fitWithin({ width: PHOTO_MAX_LONG_SIDE, height: 10 })).toEqual({ width: PHOTO_MAX_LONG_SIDE, height: 10 });
  });

  it('rounds to whole pixels and keeps at least one', () => {
    expect(fitWithin({ width: 3001, height: 1001 })).toEqual({ width: 2000, height: 667 });
    expect(fitWithin({ width: 100_000, height: 1 })).toEqual({ width: 2000, height: 1 });
  });

  it('takes another limit', () => {
    expect(fitWithin({ width: 800, height: 600 }, 400)).toEqual({ width: 400, height: 300 });
  });

  it('gives null for a size that cannot be measured', () => {
    expect(fitWithin({ width: 0, height: 600 })).toBeNull();
    expect(fitWithin({ width: Number.NaN, height: 600 })).toBeNull();
    expect(fitWithin({ width: 600, height: Number.POSITIVE_INFINITY })).toBeNull();
  });
});

describe('photoFileName', () => {
  it('keeps the name and says .jpg', () => {
    expect(photoFileName('IMG_2041.HEIC', 1)).toBe('IMG_2041.jpg');
    expect(photoFileName('scan.png', 2)).toBe('scan.jpg');
    expect(photoFileName('birth.certificate.jpeg', 1)).toBe('birth.certificate.jpg');
  });

  it('names a nameless photo by its page', () => {
    expect(photoFileName('', 3)).toBe('page-3.jpg');
    expect(photoFileName('.jpg', 2)).toBe('page-2.jpg');
  });
});
