import { expect, test, type Locator, type Page } from '@playwright/test';
import { openPastReport, pageOverflow } from './reports-support';

/** The Reports screen on a 390 px phone: stacked parameters, tabs two by two, charts that fit, no sideways scroll. */

async function expectInsideViewport(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  if (!box) throw new Error('Not on screen');
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
}

test.describe('Reports on a phone (390 px)', () => {
  test('stacks the parameters and the cards, and no tab scrolls the page sideways', async ({ page }) => {
    await openPastReport(page, { season: 'projected' });
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);

    // One parameter a line, each inside the screen.
    const form = page.getByRole('form', { name: 'Report parameters' });
    const controls = [
      form.getByRole('combobox', { name: 'Season' }),
      form.getByRole('combobox', { name: 'Division' }),
      form.getByRole('checkbox', { name: 'Compare with previous season' }),
      form.getByRole('button', { name: 'Generate Report' }),
    ];
    let previousBottom = -Infinity;
    for (const control of controls) {
      const box = await control.boundingBox();
      if (!box) throw new Error('A parameter is not on screen');
      expect(box.y).toBeGreaterThanOrEqual(previousBottom);
      previousBottom = box.y + box.height;
      await expectInsideViewport(page, control);
    }
    await expectInsideViewport(page, page.getByRole('button', { name: 'Export Report' }));
    for (const id of ['report-total-players', 'report-complete-profiles', 'report-incomplete-profiles', 'report-total-documents']) {
      await expectInsideViewport(page, page.getByTestId(id));
    }

    const tabs = page.getByRole('tab');
    await expect(tabs).toHaveCount(4);
    for (const name of ['Overview', 'Historical Trends', 'Growth Projections', 'Detailed Analysis']) {
      const tab = page.getByRole('tab', { name });
      await expectInsideViewport(page, tab);
      await tab.tap();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      const panel = page.getByRole('tabpanel', { name });
      await expect(panel).toBeVisible();
      // Each chart is drawn inside the screen.
      const charts = panel.getByTestId('chart');
      for (let i = 0; i < (await charts.count()); i++) {
        await expect(charts.nth(i).locator('svg.recharts-surface').first()).toBeVisible();
        await expectInsideViewport(page, charts.nth(i));
      }
      expect(await pageOverflow(page), `${name}: the page scrolls sideways`).toBeLessThanOrEqual(0);
    }
  });

  test('the incomplete players scroll inside their card, and the dots fit beside each name', async ({ page }) => {
    await openPastReport(page);
    const list = page.getByRole('region', { name: 'Incomplete players' });
    await list.scrollIntoViewIfNeeded();
    await expectInsideViewport(page, list);
    const { scrollHeight, clientHeight, scrollWidth, clientWidth } = await list.evaluate((el) => ({
      scrollHeight: el.scrollHeight,
      clientHeight: el.clientHeight,
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
    expect(scrollHeight).toBeGreaterThan(clientHeight);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    await expectInsideViewport(page, list.getByTestId('incomplete-player').first().getByRole('img').last());
    await expectInsideViewport(page, page.getByRole('button', { name: 'Export incomplete players (CSV)' }));
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });
});
