// Prints the bundle's raw and gzip sizes and fails the build above the 30 kB gzip budget.
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';

const file = new URL('../dist/service-widget.js', import.meta.url);
const raw = fs.readFileSync(file);
const gz = gzipSync(raw, { level: 9 }).length;
const BUDGET = 30 * 1024;
console.log(
  `service-widget.js: ${(raw.length / 1024).toFixed(1)} kB raw, ${(gz / 1024).toFixed(1)} kB gzip (budget ${BUDGET / 1024} kB gzip)`,
);
fs.writeFileSync(new URL('../dist/size.json', import.meta.url), JSON.stringify({ raw: raw.length, gzip: gz, budget: BUDGET }));
if (gz > BUDGET) {
  console.error('service-widget.js is over its size budget');
  process.exit(1);
}
