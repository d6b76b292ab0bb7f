#!/usr/bin/env node
// `npm test`: builds, runs every workspace's tests (one workspace at a time: two cores), and
// prints one plain closing line "N passed, N failed" from the runners' JSON reports.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const run = (cmd, args, env = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const reports = [
  'packages/contract',
  'packages/webhooks',
  'packages/widget',
  'apps/api',
  'apps/dashboard',
  'evaluation',
  'tools/package-check',
].map((p) => path.join(root, p, 'test-results', 'vitest.json'));
const playwrightReport = path.join(root, 'e2e', 'test-results', 'results.json');
for (const r of [...reports, playwrightReport]) fs.rmSync(r, { force: true });

let status = run(process.execPath, [path.join(root, 'scripts', 'ensure-test-packages.mjs')]);
if (status === 0) status = run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only']);
if (status === 0) status = run('npx', ['turbo', 'run', 'test', '--concurrency=1', '--continue']);

let passed = 0;
let failed = 0;
for (const r of reports) {
  if (!fs.existsSync(r)) {
    failed += 1; // a suite that did not report
    continue;
  }
  const j = JSON.parse(fs.readFileSync(r, 'utf8'));
  passed += j.numPassedTests ?? 0;
  failed += (j.numFailedTests ?? 0) + (j.numFailedTestSuites ?? 0);
}
if (fs.existsSync(playwrightReport)) {
  const { stats } = JSON.parse(fs.readFileSync(playwrightReport, 'utf8'));
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  failed += stats.unexpected ?? 0;
} else {
  failed += 1; // the browser suites did not report
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(status === 0 && failed === 0 && passed > 0 ? 0 : 1);
