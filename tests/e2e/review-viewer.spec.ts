import { test } from '@playwright/test';
import { approveAndRejectFromTheViewer, bulkApproveAsksAboutUnopened, demoDocumentOpens, reopenWithAReason } from './review-viewer-flow';

test.describe('reviewing from the document viewer', () => {
  test('a demo document opens in the viewer with its real file', async ({ page }) => {
    await demoDocumentOpens(page, 'desktop');
  });

  test('Previous, Next and the arrow keys move through the list; Approve and Reject move on to the next', async ({ page, baseURL }) => {
    await approveAndRejectFromTheViewer(page, baseURL ?? '', 'desktop');
  });

  test('a verified document is reopened with a reason, shown in its history', async ({ page, baseURL }) => {
    await reopenWithAReason(page, baseURL ?? '', 'desktop');
  });

  test('bulk approval of unopened documents asks first, naming the count, and Cancel approves nothing', async ({ page, baseURL }) => {
    await bulkApproveAsksAboutUnopened(page, baseURL ?? '', 'desktop');
  });
});
