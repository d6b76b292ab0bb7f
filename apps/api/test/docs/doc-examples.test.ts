import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, type TenantKeys } from '../helpers/api-client.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../helpers/test-service.js';

/**
 * Every fenced code block in README.md, docs/ and the packages' READMEs whose info string carries
 * the word `test` (```sh test, ```js test) is run here against a live server, so a documented
 * example cannot drift from what the server does. A file's shell blocks run in order as one
 * script (later blocks use variables of earlier ones) in a scratch directory holding a
 * `document.jpg` and a `selfie.jpg`; each JavaScript block runs as an ES module with Node.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const FACES = path.join(ROOT, 'tools/fixtures/faces');

interface Block {
  lang: string;
  code: string;
  line: number;
}

export function runnableBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w+)((?:\s+\S+)*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) break;
    if (open[2]!.split(/\s+/).includes('test')) blocks.push({ lang: open[1]!, code: lines.slice(i + 1, end).join('\n'), line: i + 1 });
    i = end;
  }
  return blocks;
}

const markdownFiles = [
  'README.md',
  ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`),
  ...fs
    .readdirSync(path.join(ROOT, 'packages'))
    .map((p) => `packages/${p}/README.md`)
    .filter((f) => fs.existsSync(path.join(ROOT, f))),
].filter((f) => f.endsWith('.md'));
const withBlocks = markdownFiles
  .map((file) => ({ file, blocks: runnableBlocks(fs.readFileSync(path.join(ROOT, file), 'utf8')) }))
  .filter((f) => f.blocks.length > 0);

let svc: TestService;
let tenant: TenantKeys;
let images: { document: Buffer; selfie: Buffer };
beforeAll(async () => {
  svc = await startTestService();
  tenant = await new Api(svc.url).tenant(50);
  images = {
    document: await sharp(path.join(FACES, 'astronaut.png')).resize(640).jpeg().toBuffer(),
    selfie: await sharp(path.join(FACES, 'grace_hopper.jpg')).resize(480).jpeg().toBuffer(),
  };
});
afterAll(() => svc?.close());

/** Asynchronous on purpose: the server runs in this process, so a blocking spawn would starve it. */
function run(cmd: string, args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: os.tmpdir(),
    BASE: svc.url,
    PUB_TEST_KEY: tenant.keys.publishableTest,
    SECRET_TEST_KEY: tenant.keys.secretTest,
    ADMIN_TOKEN,
  };
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('documented examples run against a live server', () => {
  it('finds the runnable examples (the extraction itself works)', () => {
    expect(runnableBlocks('a\n```sh test\necho hi\n```\n```sh\nnot me\n```\n```js test\n1\n```\n').map((b) => b.lang)).toEqual([
      'sh',
      'js',
    ]);
    expect(withBlocks.reduce((n, f) => n + f.blocks.length, 0)).toBeGreaterThanOrEqual(6);
  });

  it.each(withBlocks.map((f) => [f.file, f.blocks] as const))('%s', async (file, blocks) => {
    // Inside the repository, so that `import '@service/...'` in a JavaScript example resolves.
    fs.mkdirSync(path.join(ROOT, 'apps/api/test-results'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(ROOT, 'apps/api/test-results', 'doc-'));
    try {
      fs.writeFileSync(path.join(dir, 'document.jpg'), images.document);
      fs.writeFileSync(path.join(dir, 'selfie.jpg'), images.selfie);
      const shell = blocks.filter((b) => b.lang === 'sh' || b.lang === 'bash');
      if (shell.length) {
        const script = ['set -euo pipefail', ...shell.map((b) => `# ${file}:${b.line}\n${b.code}`)].join('\n');
        const r = await run('bash', ['-c', script], dir);
        expect(r.status, `${file}\n${script}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`).toBe(0);
      }
      for (const b of blocks.filter((b) => b.lang === 'js' || b.lang === 'mjs')) {
        const f = path.join(dir, `example-${b.line}.mjs`);
        fs.writeFileSync(f, b.code);
        const r = await run(process.execPath, [f], dir);
        expect(r.status, `${file}:${b.line}\n${b.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`).toBe(0);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
