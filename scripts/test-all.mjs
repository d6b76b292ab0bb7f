#!/usr/bin/env node
// `npm test`: builds, runs every workspace's tests (one workspace at a time: two cores), and
// prints how many tests were skipped and why, then one plain closing line
// "N passed, N failed, N skipped" from the runners' JSON reports.
//
// `node scripts/test-all.mjs --unit-and-api` runs the unit suites and the API suite again on the
// tree as built (no build, no browser, evaluation or package suites, and not the API suite's two
// files that run alone): CI's pass under another Node version.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const run = (cmd, args, opts = {}) =>
  spawnSync(cmd, args, { cwd: opts.cwd ?? root, stdio: 'inherit', env: { ...process.env, ...opts.env } }).status ?? 1;
const unitAndApiOnly = process.argv.includes('--unit-and-api');

// The unit suites and the API suite; the full run adds the evaluation subset and the packages.
const vitestWorkspaces = ['packages/contract', 'packages/webhooks', 'packages/widget', 'apps/api', 'apps/dashboard'];
if (!unitAndApiOnly) vitestWorkspaces.push('evaluation', 'tools/package-check');
const reports = vitestWorkspaces.map((p) => path.join(root, p, 'test-results', 'vitest.json'));
const playwrightReport = unitAndApiOnly ? null : path.join(root, 'e2e', 'test-results', 'results.json');
for (const r of [...reports, playwrightReport]) if (r) fs.rmSync(r, { force: true });

let status = 0;
if (unitAndApiOnly) {
  console.log(`\n== Unit and API suites under Node ${process.version} ==`);
  for (const w of vitestWorkspaces) {
    // The API suite without its files that run alone (the database outage and hostile input:
    // about 3 minutes of scenarios that test the database and the pipeline's bounds, not Node).
    const only = w === 'apps/api' ? ['--project', 'api'] : [];
    const s = run(
      'npx',
      ['vitest', 'run', ...only, '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json'],
      {
        cwd: path.join(root, w),
      },
    );
    if (s !== 0) status = s;
  }
} else {
  status = run(process.execPath, [path.join(root, 'scripts', 'ensure-test-packages.mjs')]);
  if (status === 0) status = run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only']);
  if (status === 0) status = run('npx', ['turbo', 'run', 'test', '--concurrency=1', '--continue']);
}

let passed = 0;
let failed = 0;
/** Why each skipped test was skipped: the reason its suite gave (test/helpers/only-if.ts), or its name. */
const skipped = new Map();
const skip = (reason) => skipped.set(reason, (skipped.get(reason) ?? 0) + 1);

for (const r of reports) {
  const where = path.relative(root, path.dirname(path.dirname(r)));
  if (!fs.existsSync(r)) {
    failed += 1; // a suite that did not report
    console.log(`\n${where}: no report (the suite did not run to its end)`);
    continue;
  }
  const j = JSON.parse(fs.readFileSync(r, 'utf8'));
  passed += j.numPassedTests ?? 0;
  failed += (j.numFailedTests ?? 0) + (j.numFailedTestSuites ?? 0);
  for (const file of j.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (!['skipped', 'pending', 'todo', 'disabled'].includes(t.status)) continue;
      skip(t.meta?.skipReason ?? `no reason given: ${where}/${path.relative(path.join(root, where), file.name)} > ${t.fullName}`);
    }
  }
}

if (playwrightReport) {
  if (fs.existsSync(playwrightReport)) {
    const report = JSON.parse(fs.readFileSync(playwrightReport, 'utf8'));
    passed += (report.stats.expected ?? 0) + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected ?? 0;
    const walk = (suite) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status !== 'skipped') continue;
          const note = (t.annotations ?? []).find((a) => a.type === 'skip' || a.type === 'fixme')?.description;
          skip(note ?? `no reason given: e2e/${spec.file} > ${spec.title}`);
        }
      }
      for (const s of suite.suites ?? []) walk(s);
    };
    for (const s of report.suites ?? []) walk(s);
  } else {
    failed += 1; // the browser suites did not report
    console.log('\ne2e: no report (the browser suites did not run to their end)');
  }
}

const skippedCount = [...skipped.values()].reduce((a, b) => a + b, 0);
if (skippedCount > 0) {
  console.log(`\n${skippedCount} skipped, and why:`);
  for (const [reason, n] of [...skipped].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(4)}  ${reason}`);
}
console.log(`\n${passed} passed, ${failed} failed, ${skippedCount} skipped`);
process.exit(status === 0 && failed === 0 && passed > 0 ? 0 : 1);
