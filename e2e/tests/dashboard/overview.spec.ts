import { expect, test } from '@playwright/test';
import { state } from '../../support/env.js';
import { watchCsp, type CspWatch } from '../../support/csp.js';
import {
  admin,
  checkPage,
  completedVerification,
  dashboardTenant,
  signIn,
  useTestData,
  type DashboardTenant,
} from '../../support/dashboard.js';
import { screenshot } from '../../support/widget-page.js';

// The Overview, the first page after sign-in (decisions.md "Dashboard"): its figures for a tenant
// whose test verifications were approved, sent to review and rejected, and whose webhook receiver
// refuses connections; the period switch, the charts drawn, their tables for screen readers, axe,
// and no Content-Security-Policy violation on any page of the dashboard.
test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.use({ viewport: { width: 1280, height: 900 }, permissions: [] });

let t: DashboardTenant;
let inReview: string;
let csp: CspWatch | undefined;

test.beforeAll(async () => {
  t = await dashboardTenant('Overview E2E');
  // A receiver that is not there: every delivery fails and is retried.
  const hook = await admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, {
    webhook: { url: 'http://127.0.0.1:9/overview-hook', secret: 'overview-webhook-secret-0123456789' },
  });
  expect(hook.status).toBe(200);
  for (const name of ['Test Approve', 'Test Approve', 'Test Approve', 'Test Reject']) await completedVerification(t, name);
  inReview = await completedVerification(t, 'Test Review');
});

test.beforeEach(async ({ page }) => {
  csp = await watchCsp(page);
});
test.afterEach(() => {
  csp?.expectNone();
});

test('signing in lands on the Overview: figures, charts with their tables, the period switch; accessible', async ({ page }) => {
  await signIn(page, t.adminEmail);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page).toHaveTitle('Overview · Dashboard');

  await useTestData(page);
  await expect(page.getByTestId('total')).toHaveText('5');
  await expect(page.getByTestId('backlog')).toHaveText('1');
  await expect(page.getByRole('link', { name: inReview })).toBeVisible(); // the oldest waiting
  // The receiver refuses: its deliveries are failing (retrying) within seconds.
  await expect
    .poll(
      async () => {
        await page.getByRole('radio', { name: '30 days' }).check();
        await page.getByRole('radio', { name: '7 days' }).check();
        return Number(await page.getByTestId('failing').textContent());
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);

  // Each chart is drawn (uPlot's canvas) and its figures are a table.
  const main = page.locator('overview-page');
  await expect(main).toHaveAttribute('data-charts-drawn', '7');
  for (const chart of ['per-day', 'shares', 'reasons']) await expect(main.locator(`[data-chart="${chart}"] canvas`)).toHaveCount(1);
  const perDay = page.getByRole('table', { name: /Verifications per day by outcome/ });
  await expect(perDay.getByRole('row')).toHaveCount(8); // a header and seven days
  await expect(perDay.getByRole('row').last().getByRole('cell')).toHaveText(['3', '1', '1', '0']);
  const shares = page.getByRole('table', { name: 'Share of outcomes' });
  await expect(shares.getByRole('row', { name: /Approved/ }).getByRole('cell')).toHaveText(['3', '60 %']);
  const reasons = page.getByRole('table', { name: /Most frequent verdict reasons/ });
  await expect(reasons.getByRole('row', { name: /Test mode forced/ }).getByRole('cell')).toHaveText(['2']);
  await checkPage(page, 'overview');

  await page.getByRole('radio', { name: '90 days' }).check();
  await expect(main).toHaveAttribute('data-charts-drawn', '90');
  await expect(perDay.getByRole('row')).toHaveCount(91);
  await screenshot(page, 'dashboard-overview-90');

  // Live data is empty for this tenant: the page says so rather than drawing empty charts.
  await page.getByRole('switch', { name: 'Test data' }).click();
  await expect(page.getByTestId('total')).toHaveText('0');
  await expect(page.getByText('No verification reached an outcome in this period.')).toBeVisible();
  await checkPage(page, 'overview-empty');
});

test("a reviewer's Overview has no webhook figures; every page of the dashboard loads without a CSP violation", async ({ page }) => {
  await signIn(page, t.reviewerEmail);
  await useTestData(page);
  await expect(page.getByTestId('backlog')).toHaveText('1');
  await expect(page.getByTestId('failing')).toHaveCount(0);
  await page.getByRole('button', { name: 'Sign out' }).click();

  await signIn(page, t.adminEmail);
  for (const link of ['Verifications', 'Review', 'Webhooks', 'API keys', 'Credits', 'Audit log', 'Overview']) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await page.goto(`${state().api}/dashboard/verifications/${inReview}`);
  await expect(page.getByRole('button', { name: 'Approve' })).toBeVisible();
});
