import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentImage } from './images.js';
import { makeTestTls } from './tls.js';
import { writeY4m } from './y4m.js';
import { ADMIN_TOKEN, CAMERA_FILE, CLIENT_IP_HEADER, E2E_ROOT, SCREENS, type E2eState } from './env.js';

/**
 * Starts the real service (built `main.js`, embedded database in a temp dir, demo page on), makes
 * two tenants, and writes the first fake-camera file before any browser launches.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  fs.mkdirSync(path.dirname(CAMERA_FILE), { recursive: true });
  fs.rmSync(SCREENS, { recursive: true, force: true });
  fs.mkdirSync(SCREENS, { recursive: true });
  await writeY4m(await documentImage(), CAMERA_FILE);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-e2e-'));
  const main = path.join(E2E_ROOT, '..', 'apps', 'api', 'dist', 'main.js');
  // Webhooks to a loopback HTTPS receiver signed by a throwaway CA (dashboard suites).
  const tlsDir = makeTestTls();
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      CLIENT_IP_HEADER,
      LOG_LEVEL: 'warn',
      DEMO: 'true',
      DATABASE_URL: '',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      NODE_EXTRA_CA_CERTS: path.join(tlsDir, 'ca.pem'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const api = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`API did not start:\n${out}`)), 180_000);
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && /Demo page/.test(out)) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`API exited ${code}:\n${out}`)));
  });
  const admin = async (body: object) => {
    const r = await fetch(`${api}/admin/v1/tenants`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await r.json()) as any;
  };
  const state: E2eState = {
    api,
    tenant: await admin({ name: 'E2E', credits: 100 }),
    poorTenant: await admin({ name: 'E2E poor', credits: 0 }),
    tlsDir,
  };
  process.env.E2E_STATE = JSON.stringify(state);

  return async () => {
    // A graceful stop (logs flushed, children stopped); forced if it takes more than 10 s.
    const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(tlsDir, { recursive: true, force: true });
  };
}
