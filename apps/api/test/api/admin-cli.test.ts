import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../helpers/test-service.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/admin.js');
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc?.close());

/** Runs the CLI as an operator would: the token in the environment, never in the arguments. */
function cli(args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}) {
  return new Promise<{ code: number; out: any; argv: string[] }>((resolve) => {
    const argv = [CLI, ...args, '--url', svc.url];
    const child = spawn(process.execPath, argv, { env: { ...process.env, ADMIN_TOKEN, ...opts.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.stdin.end(opts.stdin ?? '');
    child.on('close', (code) => {
      let out: any = stderr;
      try {
        out = JSON.parse(stdout);
      } catch {}
      resolve({ code: code ?? 1, out, argv });
    });
  });
}
const admin = (...args: string[]) => cli(args);

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
    // The secret comes from standard input, so it is in no process's arguments.
    const secret = 'x'.repeat(24);
    const wh = await cli(['tenants', 'update', id, '--webhook-url', 'https://hooks.example.com/in', '--webhook-secret-stdin'], {
      stdin: `${secret}\n`,
    });
    expect(wh.out.webhook).toEqual({ url: 'https://hooks.example.com/in' });
    expect(wh.argv.join(' ')).not.toContain(secret);
    expect(wh.argv.join(' ')).not.toContain(ADMIN_TOKEN);
    // ... or from the environment
    const env = await cli(['tenants', 'update', id, '--webhook-url', 'https://hooks.example.com/in2'], {
      env: { SERVICE_WEBHOOK_SECRET: 'y'.repeat(24) },
    });
    expect(env.out.webhook).toEqual({ url: 'https://hooks.example.com/in2' });
    expect((await admin('deliveries', 'list', id)).out.deliveries).toEqual([]);
  });

  it('lists tenants newest first, page by page', async () => {
    for (const name of ['List A', 'List B', 'List C']) expect((await admin('tenants', 'create', '--name', name)).code).toBe(0);
    const first = await admin('tenants', 'list', '--limit', '2');
    expect(first.code).toBe(0);
    expect(first.out.data.map((t: any) => t.name)).toEqual(['List C', 'List B']);
    const next = await admin('tenants', 'list', '--limit', '2', '--cursor', first.out.nextCursor);
    expect(next.out.data[0].name).toBe('List A');
  });

  it('refuses to run without an admin token in the environment', async () => {
    const r = await cli(['tenants', 'list'], { env: { ADMIN_TOKEN: '', DATA_DIR: svc.dataDir } });
    expect(r.code).toBe(2);
    expect(String(r.out)).toMatch(/ADMIN_TOKEN/);
  });

  it('exits non-zero with the API error on bad input', async () => {
    const r = await admin('tenants', 'update', 'tn_missing', '--credits', '1');
    expect(r.code).toBe(1);
    expect(r.out.error).toBe('not_found');
  });
});
