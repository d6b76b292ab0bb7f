import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import fs from 'node:fs';
import { documentImage, SELFIE_SOURCE } from './images.js';
import { ADMIN_TOKEN, CLIENT_IP_HEADER, state } from './env.js';
import { screenshot } from './widget-page.js';

export const PASSWORD = 'e2e dashboard password';

const client = { [CLIENT_IP_HEADER]: `dashboard-${process.pid}` };

async function json(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${state().api}${path}`, {
    method,
    headers: { ...client, ...headers, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : null };
}

export const admin = (method: string, path: string, body?: unknown) => json(method, path, body, { Authorization: `Bearer ${ADMIN_TOKEN}` });

export interface DashboardTenant {
  tenantId: string;
  keys: { publishableTest: string; secretTest: string; publishable: string; secret: string };
  adminEmail: string;
  reviewerEmail: string;
}

/** A tenant of its own with an admin and a reviewer (operator route, with passwords). */
export async function dashboardTenant(name: string): Promise<DashboardTenant> {
  const t = (await admin('POST', '/admin/v1/tenants', { name, credits: 10 })).body;
  const tag = Math.random().toString(36).slice(2, 8);
  const adminEmail = `admin.${tag}@example.com`;
  const reviewerEmail = `reviewer.${tag}@example.com`;
  expect(
    (await admin('POST', `/admin/v1/tenants/${t.tenantId}/users`, { email: adminEmail, role: 'admin', password: PASSWORD })).status,
  ).toBe(201);
  expect(
    (await admin('POST', `/admin/v1/tenants/${t.tenantId}/users`, { email: reviewerEmail, role: 'reviewer', password: PASSWORD })).status,
  ).toBe(201);
  return { tenantId: t.tenantId, keys: t.keys, adminEmail, reviewerEmail };
}

let docJpeg: Buffer | null = null;

/** A test-mode verification with real images; the typed name forces the verdict ("Test Review" ...). */
export async function completedVerification(t: DashboardTenant, fullName: string): Promise<string> {
  docJpeg ??= await documentImage();
  const init = await json(
    'POST',
    '/v1/verify/init',
    { submittedFullName: fullName },
    { Authorization: `Bearer ${t.keys.publishableTest}` },
  );
  expect(init.status).toBe(200);
  for (const [slot, bytes] of [
    ['docFront', docJpeg],
    ['selfie', fs.readFileSync(SELFIE_SOURCE)],
  ] as const) {
    const s = init.body.uploads[slot];
    const r = await fetch(s.url, {
      method: 'PUT',
      headers: { ...s.headers, ...client, 'X-Service-Capture-Source': 'camera' },
      body: new Uint8Array(bytes),
    });
    expect(r.status).toBe(200);
  }
  const { verificationId } = init.body;
  const submit = await json(
    'POST',
    '/v1/verify/submit',
    { verificationId, keys: { docFront: init.body.uploads.docFront.key, selfie: init.body.uploads.selfie.key } },
    { Authorization: `Bearer ${t.keys.secretTest}` },
  );
  expect(submit.status).toBe(202);
  await expect
    .poll(
      async () =>
        (await json('GET', `/v1/verify/${verificationId}`, undefined, { Authorization: `Bearer ${t.keys.secretTest}` })).body.status,
      {
        timeout: 20_000,
      },
    )
    .toBe('completed');
  return verificationId as string;
}

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${state().api}/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

export async function useTestData(page: Page): Promise<void> {
  const toggle = page.getByRole('switch', { name: 'Test data' });
  if (!(await toggle.isChecked())) await toggle.click();
  await expect(page.getByText('Showing test data')).toBeVisible();
}

/** axe-core on the page as it is: no serious or critical violation; a full-page screenshot is kept. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await screenshot(page, `dashboard-${name}`);
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`)).toEqual([]);
}
