/** A one-channel 8-bit image, row by row (0 black, 255 white). */
export type GreyImage = { width: number; height: number; data: Uint8Array };

/** The grey level that best splits dark from light (Otsu's method over the histogram): it and below are dark. */
export function otsuThreshold(image: GreyImage): number {
  const histogram = new Float64Array(256);
  for (const value of image.data) histogram[value]! += 1;
  const total = image.data.length;
  let sumAll = 0;
  for (let level = 0; level < 256; level++) sumAll += level * histogram[level]!;
  let best = 127;
  let bestSpread = -1;
  let below = 0;
  let sumBelow = 0;
  for (let level = 0; level < 256; level++) {
    below += histogram[level]!;
    if (below === 0) continue;
    const above = total - below;
    if (above === 0) break;
    sumBelow += level * histogram[level]!;
    const meanBelow = sumBelow / below;
    const meanAbove = (sumAll - sumBelow) / above;
    const spread = below * above * (meanBelow - meanAbove) ** 2;
    if (spread > bestSpread) {
      bestSpread = spread;
      best = level;
    }
  }
  return best;
}

/** Fewer dark pixels than this and there is no text to judge a slant by. */
const MIN_INK_PIXELS = 200;
/** Past this many dark pixels, every n-th is enough to judge by (and keeps the estimate fast). */
const MAX_SAMPLED_PIXELS = 150_000;
/** Below this slant (degrees) the page is left as it is: turning it would only soften the letters. */
const NEGLIGIBLE_DEGREES = 0.3;

/**
 * The slant of a page's text lines, in degrees, within ±maxDegrees: positive when the lines run down to
 * the right (the page turned clockwise), so turning the page by minus this straightens it. Judged by the
 * projection profile: dark pixels are summed along lines of each candidate slant, and the slant whose sums
 * are most uneven (all the ink on the text lines, none between them) wins. Made for a downscaled copy of
 * the page (about 1,000 pixels on its long side). 0 when there is too little ink, or no slant stands out.
 */
export function estimateSkew(image: GreyImage, maxDegrees = 10): number {
  const { width, height, data } = image;
  const threshold = Math.min(otsuThreshold(image), 200);
  let ink = 0;
  for (const value of data) if (value <= threshold) ink++;
  // A page that is mostly dark is a photo of something else, not text on paper.
  if (ink < MIN_INK_PIXELS || ink > data.length * 0.5) return 0;
  const step = Math.max(1, Math.ceil(ink / MAX_SAMPLED_PIXELS));
  const xs = new Float64Array(Math.ceil(ink / step));
  const ys = new Float64Array(xs.length);
  let count = 0;
  let seen = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[y * width + x]! > threshold) continue;
      if (seen++ % step === 0 && count < xs.length) {
        xs[count] = x - width / 2;
        ys[count] = y;
        count++;
      }
    }
  }
  const span = Math.ceil(width * Math.tan((maxDegrees * Math.PI) / 180)) + 2;
  const rows = new Float64Array(height + 2 * span);
  const score = (degrees: number): number => {
    const slope = Math.tan((degrees * Math.PI) / 180);
    rows.fill(0);
    for (let index = 0; index < count; index++) rows[Math.round(ys[index]! - xs[index]! * slope) + span]! += 1;
    let sum = 0;
    for (const value of rows) sum += value * value;
    return sum;
  };
  const search = (from: number, to: number, by: number, start: { degrees: number; score: number }) => {
    let best = start;
    for (let degrees = from; degrees <= to + 1e-9; degrees += by) {
      const value = score(degrees);
      if (value > best.score) best = { degrees, score: value };
    }
    return best;
  };
  const level = { degrees: 0, score: score(0) };
  const coarse = search(-maxDegrees, maxDegrees, 0.5, level);
  const fine = search(coarse.degrees - 0.5, coarse.degrees + 0.5, 0.1, coarse);
  // Text lines make one slant stand out clearly; a photo or a drawing does not.
  if (fine.score < level.score * 1.05 || Math.abs(fine.degrees) < NEGLIGIBLE_DEGREES) return 0;
  return Math.round(fine.degrees * 10) / 10;
}
