import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pack, publishablePackages, ROOT, run, tarballFiles, type PublishablePackage } from './packages.js';

// What a newcomer gets from `npm pack` on a clean clone: each publishable package builds before
// packing, ships its licence and README, passes the ecosystem's checkers (publint, Are the Types
// Wrong), and installs from its tarball into a scratch strict-TypeScript app that builds.
const packages = publishablePackages();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'package-check-'));
const tarballs = new Map<string, string>();

beforeAll(async () => {
  for (const pkg of packages) tarballs.set(pkg.name, await pack(pkg, work));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Every file an `exports`/`main`/`types` entry names, as paths inside the tarball. */
function entryFiles(manifest: PublishablePackage['manifest']): string[] {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.add(v.replace(/^\.\//, ''));
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(manifest.exports);
  walk(manifest.main);
  walk(manifest.types);
  return [...out].filter((f) => !f.includes('*'));
}

describe('publishable packages', () => {
  it('are the ones we mean to publish', () => {
    expect(packages.map((p) => p.name)).toEqual(expect.arrayContaining(['@service/contract', '@service/webhooks']));
  });

  it.each(packages.map((p) => [p.name, p] as const))('%s packs with its licence, README, metadata and entry files', async (_, pkg) => {
    const files = await tarballFiles(tarballs.get(pkg.name)!);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', ...entryFiles(pkg.manifest)]));
    expect(pkg.manifest).toMatchObject({
      license: 'Apache-2.0',
      repository: { type: 'git', directory: path.relative(path.resolve(pkg.dir, '../..'), pkg.dir) },
      publishConfig: { access: 'public' },
    });
    expect(fs.readFileSync(path.join(pkg.dir, 'LICENSE'), 'utf8')).toContain('Apache License');
    // A runtime import of another of our packages makes it a real dependency, never a devDependency.
    const deps = { ...(pkg.manifest.dependencies as Record<string, string> | undefined) };
    const dts = files.filter((f) => f.endsWith('.d.ts'));
    const { execFileSync } = await import('node:child_process');
    for (const f of dts) {
      const text = execFileSync('tar', ['-xzOf', tarballs.get(pkg.name)!, `package/${f}`], { encoding: 'utf8' });
      for (const m of text.matchAll(/from '(@service\/[a-z-]+)'/g)) expect(deps, `${f} imports ${m[1]}`).toHaveProperty(m[1]!);
    }
  });

  it.each(packages.map((p) => [p.name, p] as const))('%s passes publint with no warning', async (_, pkg) => {
    const tarball = fs.readFileSync(tarballs.get(pkg.name)!);
    const { messages, pkg: manifest } = await publint({
      pkgDir: 'package', // the tarball's root
      level: 'warning',
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
    });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, manifest, { color: false }) ?? m.code}`)).toEqual([]);
  });

  it.each(packages.map((p) => [p.name, p] as const))('%s passes Are the Types Wrong (ESM-only profile)', async (_, pkg) => {
    const attw = path.join(ROOT, 'node_modules/.bin/attw');
    const r = await run(attw, [tarballs.get(pkg.name)!, '--profile', 'esm-only', '--format', 'ascii', '--no-color', '--no-emoji'], work);
    expect(r.code, r.out).toBe(0);
  });
});

/**
 * A scratch app in `work/<name>` depending on every packed tarball (plus `dependencies`), with a
 * strict TypeScript configuration (plus `compilerOptions`) and the given files.
 */
function scratchApp(
  name: string,
  opts: {
    dependencies?: Record<string, string>;
    devDependencies: Record<string, string>;
    compilerOptions: object;
    files: Record<string, string>;
  },
): string {
  const app = path.join(work, name);
  fs.mkdirSync(path.join(app, 'src'), { recursive: true });
  const deps = Object.fromEntries([...tarballs].map(([pkg, file]) => [pkg, `file:${file}`]));
  fs.writeFileSync(
    path.join(app, 'package.json'),
    JSON.stringify({
      name: `scratch-${name}`,
      private: true,
      type: 'module',
      dependencies: { ...deps, ...opts.dependencies },
      devDependencies: { typescript: '~6.0.3', vite: '8.3.8', ...opts.devDependencies },
    }),
  );
  fs.writeFileSync(
    path.join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        verbatimModuleSyntax: true,
        ...opts.compilerOptions,
      },
      include: ['src'],
    }),
  );
  for (const [file, text] of Object.entries(opts.files)) fs.writeFileSync(path.join(app, file), text);
  return app;
}

/** npm install, tsc and vite build in a scratch app, each expected to succeed; the built JavaScript files. */
async function installTypeCheckBuild(app: string): Promise<string[]> {
  const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);
  expect(install.code, install.out).toBe(0);
  const tsc = await run(path.join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app);
  expect(tsc.code, tsc.out).toBe(0);
  const build = await run(path.join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error'], app);
  expect(build.code, build.out).toBe(0);
  return fs
    .readdirSync(path.join(app, 'dist/assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => path.join(app, 'dist/assets', f));
}

describe('installed from the tarballs into a scratch strict-TypeScript Vite app', () => {
  it('type-checks and builds without a cast or a hand-written declaration', async () => {
    const app = scratchApp('vite-app', {
      devDependencies: { '@types/node': '^20.19.0', '@playwright/test': '1.64.1' },
      compilerOptions: { types: ['node'] },
      files: {
        'index.html': '<!doctype html><div id="app"></div><script type="module" src="/src/main.ts"></script>\n',
        // The browser side: the contract's schemas and types, the widget's typed events.
        'src/main.ts': `import { initRequestSchema, LIMITS, type ResultRecord } from '@service/contract';
import '@service/widget';

const body = initRequestSchema.parse({ submittedFullName: 'Ana Martínez' });
const approved = (r: ResultRecord): boolean => r.status === 'completed' && r.verdict === 'approved';
document.querySelector('#app')!.textContent = \`\${body.activeLiveness} \${LIMITS.imageMaxBytes} \${String(approved)}\`;

// The widget's events as the README writes them: typed details, no cast.
const widget = document.createElement('service-widget');
widget.publishableKey = 'qv_pubt_example';
widget.addEventListener('service:complete', (e) => console.log(e.detail.verificationId, e.detail.status));
widget.addEventListener('service:error', (e) => {
  if (e.detail.code === 'user_cancelled') return;
  console.error(e.detail.code, e.detail.message);
});
document.body.append(widget);
`,
        // A tenant's QA suite: the fake camera with the sample person, the driver, the forced verdicts.
        'src/qa.spec.ts': `import { test, expect } from '@playwright/test';
import { completeVerification, FORCE_VERDICT, installFakeCamera, SAMPLE_PERSON, sampleFrames } from '@service/testing';

test('verification with active liveness', async ({ page }) => {
  await installFakeCamera(page, { head: 'follow' });
  await page.goto(\`/verify?name=\${encodeURIComponent(FORCE_VERDICT.approved)}\`);
  const { verificationId, status } = await completeVerification(page);
  expect(verificationId).toMatch(/^vf_/);
  expect(['queued', 'processing', 'completed']).toContain(status);
  expect(sampleFrames().turn_left.length).toBeGreaterThan(0);
  expect(SAMPLE_PERSON.fullName).toBe('Marta Ortega Lindqvist');
});
`,
        // The server side: the webhook helper returns the contract's typed event.
        'src/receiver.ts': `import { verifyWebhook, WebhookVerificationError } from '@service/webhooks';

export function handle(rawBody: Buffer, header: string | undefined): string {
  try {
    const event = verifyWebhook({ rawBody, header, secret: [process.env.OLD_SECRET!, process.env.NEW_SECRET!] });
    switch (event.type) {
      case 'verification.approved':
      case 'verification.reviewed':
        return \`\${event.verificationId} \${event.verdict ?? ''}\`;
      case 'webhook.test':
        return event.id;
      default:
        return event.type;
    }
  } catch (err) {
    return err instanceof WebhookVerificationError ? err.code : 'error';
  }
}
`,
      },
    });
    expect((await installTypeCheckBuild(app)).length).toBeGreaterThan(0);
    // @service/testing's sample person ships in the tarball and loads from the installed package.
    const frames = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { sampleFrames } from '@service/testing'; const f = sampleFrames(); console.log(Object.keys(f).sort().join(','), f.front.length > 10000);",
      ],
      app,
    );
    expect(frames.code, frames.out).toBe(0);
    expect(frames.out).toContain('document,front,look_down,look_up,turn_left,turn_right true');
  });
});

describe('installed from the tarballs into a scratch React 19 app', () => {
  it('uses <service-widget> in JSX through @service/widget/react, type-checks strictly and builds', async () => {
    const app = scratchApp('react-app', {
      dependencies: { react: '^19.2.0', 'react-dom': '^19.2.0' },
      devDependencies: { '@types/react': '^19.2.0', '@types/react-dom': '^19.2.0' },
      compilerOptions: { jsx: 'react-jsx' },
      files: {
        'index.html': '<!doctype html><div id="root"></div><script type="module" src="/src/main.tsx"></script>\n',
        'src/main.tsx': `import { useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import '@service/widget/react';

function Verify() {
  const ref = useRef<HTMLElementTagNameMap['service-widget']>(null);
  const [done, setDone] = useState<string | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onComplete = (e: HTMLElementEventMap['service:complete']) => setDone(e.detail.verificationId);
    el.addEventListener('service:complete', onComplete);
    return () => el.removeEventListener('service:complete', onComplete);
  }, []);
  return done ? <p>{done}</p> : <service-widget ref={ref} publishable-key="qv_pubt_example" document-type="passport" active-liveness />;
}

createRoot(document.getElementById('root')!).render(<Verify />);
`,
      },
    });
    const js = await installTypeCheckBuild(app);
    expect(js.some((f) => fs.readFileSync(f, 'utf8').includes('service-widget'))).toBe(true);
  });
});
