import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Serious and critical WCAG A/AA violations of the page (or of the part `include` selects), described well
 * enough to fix from the test output.
 *
 * A page without frames is analysed by one axe.run inside it, which reports the nodes of violations only. By
 * default @axe-core/playwright runs axe per frame (runPartial), sends every node it looked at, passes
 * included, to a blank page it opens for the occasion, and joins them there (finishRun): the same rules and
 * the same violations, for a frame-less page about twice the time. A page with a frame (the document viewer's
 * PDF) keeps that default, which reaches into the frame.
 */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  // options() replaces every option set before it, so it comes before withTags().
  if (page.frames().length === 1) builder.setLegacyMode().options({ resultTypes: ['violations'] });
  builder.withTags(WCAG_A_AA);
  if (include) builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
