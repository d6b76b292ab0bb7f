import { verifyWebhook } from '@service/webhooks';
import { expect, test } from '@playwright/test';
import { state } from '../../support/env.js';
import { watchCsp, type CspWatch } from '../../support/csp.js';
import { checkPage, completedVerification, dashboardTenant, signIn, useTestData, type DashboardTenant } from '../../support/dashboard.js';
import { WebhookReceiver } from '../../support/tls.js';
import { screenshot } from '../../support/widget-page.js';

// The tenant dashboard in Debian Chromium against the real service: every page, the accessible
// names of decisions.md, the webhook path of a review, keys, the audit log, a reviewer's view and
// keyboard-only review. One tenant for the whole file, so the steps run in order.
// Generous timeouts: the machine running the suites is shared and the API does real work.
test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.use({ viewport: { width: 1280, height: 900 }, permissions: [] });

const SECRET_1 = 'first-dashboard-secret-0123456789';
const SECRET_2 = 'second-dashboard-secret-9876543210';
let t: DashboardTenant;
let receiver: WebhookReceiver;
let inReview: string[] = [];
let approvedId: string;

test.beforeAll(async () => {
  receiver = await new WebhookReceiver().start(state().tlsDir);
  t = await dashboardTenant('Dashboard E2E');
  inReview = [];
  for (let i = 0; i < 4; i++) inReview.push(await completedVerification(t, 'Test Review'));
  approvedId = await completedVerification(t, 'Test Approve');
});
test.afterAll(async () => {
  await receiver?.stop();
});
// No page of the dashboard may trip its Content-Security-Policy (a blocked eval included).
let csp: CspWatch | undefined;
test.beforeEach(async ({ page }) => {
  csp = await watchCsp(page);
});
test.afterEach(() => {
  csp?.expectNone();
});

const events = (type: string) => receiver.received.filter((r) => JSON.parse(r.body).type === type);

test('sign in, set the webhook, find a verification and see its images', async ({ page }) => {
  await page.goto(`${state().api}/dashboard`);
  await checkPage(page, 'sign-in');
  await page.getByLabel('Email').fill(t.adminEmail);
  await page.getByLabel('Password').fill('wrong password!!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('Wrong email or password');
  await signIn(page, t.adminEmail);

  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByLabel('URL').fill(receiver.url('/hook'));
  await page.getByLabel('Secret').fill(SECRET_1);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

  await page.getByRole('link', { name: 'Verifications' }).click();
  await screenshot(page, 'dashboard-verifications-live');
  await useTestData(page);
  await expect(page.getByRole('link', { name: approvedId })).toBeVisible();
  await checkPage(page, 'verifications-test');

  await page.getByLabel('Find by ID').fill(approvedId);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/verifications/${approvedId}$`));
  for (const alt of ['Document front', 'Selfie']) {
    const img = page.getByRole('img', { name: alt, exact: true });
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(100);
  }
  await expect(page.getByRole('cell', { name: 'Test Approve' })).toBeVisible();
  await checkPage(page, 'verification');
  await page.getByRole('button', { name: 'Enlarge Selfie' }).click();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(page.getByText('150 %')).toBeVisible();
  await screenshot(page, 'dashboard-verification-zoom');
  await page.keyboard.press('Escape');

  // Deep link to another tenant's verification: not found.
  const other = await dashboardTenant('Other tenant');
  const foreign = await completedVerification(other, 'Test Approve');
  await page.goto(`${state().api}/dashboard/verifications/${foreign}`);
  await expect(page.getByRole('heading', { name: 'Verification not found' })).toBeVisible();
  expect((await page.request.get(`${state().api}/dashboard/api/verifications/${foreign}/images/selfie`)).status()).toBe(404);
});

test('approve one in review: it leaves the queue and the tenant receives verification.reviewed', async ({ page }) => {
  await signIn(page, t.adminEmail);
  await useTestData(page);
  await page.getByRole('link', { name: 'Review' }).click();
  await expect(page.getByRole('link', { name: inReview[0]! })).toBeVisible();
  await checkPage(page, 'review');
  const id = await page.locator('h2.mono').textContent();
  await page.getByLabel('Note').fill('Document and selfie match on close look');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('link', { name: id! })).toHaveCount(0);

  await expect.poll(() => events('verification.reviewed').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  const hook = events('verification.reviewed')[0]!;
  const event = verifyWebhook<any>({ rawBody: hook.body, signatureHeader: hook.headers['service-signature'], secret: SECRET_1 });
  expect(event).toMatchObject({ verificationId: id, verdict: 'approved', mode: 'test' });
});

test('a new webhook secret signs the next delivery', async ({ page }) => {
  await signIn(page, t.adminEmail);
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByLabel('URL')).toHaveValue(receiver.url('/hook'));
  await expect(page.getByLabel('Secret')).toHaveValue('');
  await page.getByLabel('Secret').fill(SECRET_2);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'new secret' })).toBeVisible();

  const before = receiver.received.length;
  await useTestData(page);
  await page.getByRole('link', { name: 'Review' }).click();
  const id = await page.locator('h2.mono').textContent();
  await page.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByRole('link', { name: id! })).toHaveCount(0);
  await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThan(before);
  const hook = receiver.received[receiver.received.length - 1]!;
  const header = String(hook.headers['service-signature']);
  expect(verifyWebhook<any>({ rawBody: hook.body, signatureHeader: header, secret: SECRET_2 })).toMatchObject({
    verificationId: id,
    verdict: 'rejected',
  });
  expect(() => verifyWebhook({ rawBody: hook.body, signatureHeader: header, secret: SECRET_1 })).toThrow();
});

test('a failed delivery is requeued from the deliveries list', async ({ page }) => {
  receiver.status = 400; // a 4xx other than 408/429 fails at once
  await signIn(page, t.adminEmail);
  await useTestData(page);
  await page.getByRole('link', { name: 'Review' }).click();
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('link', { name: 'Webhooks' }).click();
  const failedRow = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Requeue', exact: true }) });
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return failedRow.count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  await expect(failedRow).toContainText('HTTP 400');
  await checkPage(page, 'webhooks');
  receiver.status = 200;
  const before = receiver.received.length;
  await failedRow.getByRole('button', { name: 'Requeue', exact: true }).click();
  await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThan(before);
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return page.getByRole('button', { name: 'Requeue', exact: true }).count();
      },
      { timeout: 20_000 },
    )
    .toBe(0);
});

test('create a key (shown once) and revoke it: the revoked key gets 401 at once', async ({ page }) => {
  await signIn(page, t.adminEmail);
  await page.getByRole('link', { name: 'API keys' }).click();
  await checkPage(page, 'keys');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-key').textContent())!.trim();
  expect(key).toMatch(/^qv_sec_/);
  await checkPage(page, 'keys-created');
  await page.getByRole('button', { name: 'Done' }).click();
  const result = () => page.request.get(`${state().api}/v1/verify/${approvedId}`, { headers: { Authorization: `Bearer ${key}` } });
  expect((await result()).status()).toBe(404); // live key, test verification: a valid key's answer
  const row = page.getByRole('row').filter({ hasText: `qv_sec_…${key.slice(-4)}` });
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('revoked');
  const after = await result();
  expect(after.status()).toBe(401);
  expect((await after.json()).error).toBe('invalid_api_key');

  await page.getByRole('link', { name: 'Credits' }).click();
  await expect(page.getByTestId('credits')).toHaveText('10');
  await checkPage(page, 'credits');
});

test('the audit log shows each change and image view', async ({ page }) => {
  await signIn(page, t.adminEmail);
  await page.getByRole('link', { name: 'Audit log' }).click();
  for (const what of [
    'Signed in',
    'Changed webhook settings',
    'Viewed an image',
    'Reviewed a verification',
    'Requeued a delivery',
    'Created an API key',
    'Revoked an API key',
  ]) {
    await expect(page.getByRole('cell', { name: what }).first()).toBeVisible();
  }
  await expect(page.getByRole('cell', { name: t.adminEmail }).first()).toBeVisible();
  await checkPage(page, 'audit');
});

test("a reviewer's view: verifications and review only", async ({ page }) => {
  await signIn(page, t.reviewerEmail);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Verifications' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Review' })).toBeVisible();
  for (const hidden of ['Webhooks', 'API keys', 'Audit log', 'Credits'])
    await expect(nav.getByRole('link', { name: hidden })).toHaveCount(0);
  await page.goto(`${state().api}/dashboard/keys`);
  await expect(page.getByRole('heading', { name: 'Not available' })).toBeVisible();
  await checkPage(page, 'reviewer-forbidden');
  for (const path of ['/keys', '/webhook', '/audit']) {
    expect((await page.request.get(`${state().api}/dashboard/api${path}`)).status()).toBe(403);
  }
  await page.getByRole('link', { name: 'Verifications' }).click();
  await checkPage(page, 'reviewer-verifications');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect((await page.request.get(`${state().api}/dashboard/api/session`)).status()).toBe(401);
});

test('keyboard-only review with the shortcuts', async ({ page }) => {
  await page.goto(`${state().api}/dashboard`);
  // The form renders after the module loads: a Tab pressed before it lands elsewhere.
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(t.reviewerEmail);
  await page.keyboard.press('Tab');
  await page.keyboard.type('e2e dashboard password');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await useTestData(page);
  await page.getByRole('link', { name: 'Review' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('h2.mono')).toBeVisible();
  const queued = await page.locator('tbody tr').count();
  expect(queued).toBeGreaterThanOrEqual(1);
  const id = await page.locator('h2.mono').textContent();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('n');
  await expect(page.getByLabel('Note')).toBeFocused();
  await page.keyboard.type('Checked with the keyboard only');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Approve' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('link', { name: id! })).toHaveCount(0);
  const detail = await page.request.get(`${state().api}/dashboard/api/verifications/${id}`);
  expect((await detail.json()).review).toMatchObject({ decision: 'approved', note: 'Checked with the keyboard only' });
});

test('a redacted verification: its badge, the note, no images, the result kept; accessible', async ({ page }) => {
  const id = await completedVerification(t, 'Test Approve');
  const r = await fetch(`${state().api}/v1/verify/${id}/redact`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${t.keys.secretTest}` },
  });
  expect(r.status).toBe(200);
  await signIn(page, t.adminEmail);
  await useTestData(page);
  await page.goto(`${state().api}/dashboard/verifications/${id}`);
  await expect(page.getByText('redacted', { exact: true })).toBeVisible();
  await expect(page.getByRole('note')).toContainText('its images and personal data were erased');
  await expect(page.getByText(/Images deleted[\s\S]*\(redacted on request\)/)).toBeVisible();
  await expect(page.getByRole('img', { name: 'Selfie', exact: true })).toHaveCount(0);
  await expect(page.getByRole('listitem').filter({ hasText: 'Redacted on request' })).toBeVisible(); // the timeline
  await checkPage(page, 'verification-redacted');
});
