// Prints the served bundle's sizes (the core, and each lazily loaded part) and fails the build
// when the core is over its budget: 16 kB gzip (level 9), Lit included.
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const BUDGET = 16 * 1024;
const size = (file) => {
  const raw = fs.readFileSync(file);
  return { raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
};
const kB = (n) => `${(n / 1024).toFixed(1)} kB`;
const core = size(new URL('service-widget.js', dist));
const chunks = Object.fromEntries(
  fs
    .readdirSync(new URL('chunks/', dist))
    .filter((n) => n.endsWith('.js'))
    .map((n) => [n, size(new URL(`chunks/${n}`, dist))]),
);
console.log(`service-widget.js (core): ${kB(core.raw)} raw, ${kB(core.gzip)} gzip (budget ${kB(BUDGET)} gzip)`);
for (const [name, s] of Object.entries(chunks)) console.log(`  lazy ${name}: ${kB(s.gzip)} gzip`);
fs.writeFileSync(new URL('size.json', dist), JSON.stringify({ raw: core.raw, gzip: core.gzip, budget: BUDGET, chunks }));
if (core.gzip > BUDGET) {
  console.error('service-widget.js is over its size budget');
  process.exit(1);
}
