import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../helpers/test-service.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/admin.js');
const run = promisify(execFile);
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc?.close());

const admin = async (...args: string[]) => {
  try {
    const { stdout } = await run(process.execPath, [CLI, ...args, '--url', svc.url, '--token', ADMIN_TOKEN]);
    return { code: 0, out: JSON.parse(stdout) };
  } catch (err: any) {
    return { code: err.code as number, out: err.stdout ? JSON.parse(err.stdout) : err.stderr };
  }
};

describe('npm run admin', () => {
  it('creates a tenant, tops up credits, issues and revokes a key, sets a webhook', async () => {
    const created = await admin('tenants', 'create', '--name', 'Cli Co', '--credits', '3');
    expect(created.code).toBe(0);
    expect(created.out.keys.secret).toMatch(/^qv_sec_/);
    const id = created.out.tenantId;
    expect((await admin('tenants', 'update', id, '--credits', '9')).out.credits).toBe(9);
    const key = await admin('keys', 'create', id, '--family', 'publishable', '--mode', 'test', '--origins', 'a.example,b.example');
    expect(key.out.allowedOrigins).toEqual(['a.example', 'b.example']);
    expect((await admin('keys', 'revoke', key.out.keyId)).out.revoked).toBe(true);
    const wh = await admin('tenants', 'update', id, '--webhook-url', 'https://hooks.example.com/in', '--webhook-secret', 'x'.repeat(24));
    expect(wh.out.webhook).toEqual({ url: 'https://hooks.example.com/in' });
    expect((await admin('deliveries', 'list', id)).out.deliveries).toEqual([]);
  });

  it('exits non-zero with the API error on bad input', async () => {
    const r = await admin('tenants', 'update', 'tn_missing', '--credits', '1');
    expect(r.code).toBe(1);
    expect(r.out.error).toBe('not_found');
  });
});
