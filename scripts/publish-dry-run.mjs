#!/usr/bin/env node
// `npm run release:dry-run`: `npm publish --dry-run` of every published package (each
// packages/*/package.json that is not private), as a release would publish it: its prepack builds
// it, npm packs it and reports the tarball, nothing is sent. Exits non-zero if any fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const published = fs
  .readdirSync(path.join(root, 'packages'))
  .map((d) => path.join(root, 'packages', d, 'package.json'))
  .filter((f) => fs.existsSync(f))
  .map((f) => JSON.parse(fs.readFileSync(f, 'utf8')))
  .filter((p) => !p.private);

let failed = 0;
for (const p of published) {
  const r = spawnSync('npm', ['publish', '--dry-run', '--workspace', p.name], { cwd: root, encoding: 'utf8' });
  const out = `${r.stdout}${r.stderr}`;
  const size = /package size:\s*(.+)/.exec(out)?.[1] ?? '?';
  const files = /total files:\s*(\d+)/.exec(out)?.[1] ?? '?';
  if (r.status === 0) console.log(`  ok  ${p.name}@${p.version}: ${files} files, ${size}`);
  else {
    failed += 1;
    console.log(`  FAILED  ${p.name}@${p.version}\n${out}`);
  }
}
console.log(`${published.length - failed} of ${published.length} packages would publish`);
process.exit(failed ? 1 : 0);
