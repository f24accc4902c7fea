import { describe, expect, it } from 'vitest';
import { estimateSkew, otsuThreshold, type GreyImage } from './deskew';

/**
 * A page of "text" (rows of dark words: short bars with gaps, lines a regular distance apart) turned
 * clockwise by `degrees`, as a scan fed in crooked would show it.
 */
function slantedPage(degrees: number, width = 800, height = 1000): GreyImage {
  const data = new Uint8Array(width * height).fill(235);
  const angle = (degrees * Math.PI) / 180;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Where this pixel was on the straight page (turned back about the centre).
      const dx = x - width / 2;
      const dy = y - height / 2;
      const u = cos * dx + sin * dy + width / 2;
      const v = -sin * dx + cos * dy + height / 2;
      const inMargin = u < 100 || u > width - 100 || v < 120 || v > height - 120;
      const onLine = (v - 120) % 36 < 11;
      const inWord = (Math.floor(u / 7) * 7919) % 11 !== 0 && Math.floor(u) % 53 < 44;
      if (!inMargin && onLine && inWord) data[y * width + x] = 30;
    }
  }
  return { width, height, data };
}

describe('estimateSkew', () => {
  it.each([-8, -3.5, 2, 6, 9.5])('finds the slant of text lines turned %s°', (degrees) => {
    expect(estimateSkew(slantedPage(degrees))).toBeCloseTo(degrees, 0);
    expect(Math.abs(estimateSkew(slantedPage(degrees)) - degrees)).toBeLessThanOrEqual(0.3);
  });

  it('leaves a straight page straight', () => {
    expect(estimateSkew(slantedPage(0))).toBe(0);
  });

  it('finds no slant on a blank page or one of noise', () => {
    expect(estimateSkew({ width: 300, height: 300, data: new Uint8Array(300 * 300).fill(250) })).toBe(0);
    let seed = 7;
    const noise = new Uint8Array(300 * 300).map(() => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % 256;
    });
    expect(estimateSkew({ width: 300, height: 300, data: noise })).toBe(0);
  });
});

describe('otsuThreshold', () => {
  it('splits dark ink from light paper', () => {
    const data = new Uint8Array(1000).map((_, index) => (index % 10 === 0 ? 40 : 220));
    const threshold = otsuThreshold({ width: 1000, height: 1, data });
    expect(threshold).toBeGreaterThanOrEqual(40);
    expect(threshold).toBeLessThan(220);
  });
});
