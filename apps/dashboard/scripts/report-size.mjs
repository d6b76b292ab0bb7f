// Prints the size of what a browser downloads for the dashboard (JS and CSS, raw and gzip): what
// every page loads, and the Overview's chart chunk (uPlot), which only the Overview fetches.
import fs from 'node:fs';
import zlib from 'node:zlib';

const dir = new URL('../dist/assets/', import.meta.url);
const sizes = { first: { raw: 0, gz: 0 }, charts: { raw: 0, gz: 0 } };
for (const f of fs.readdirSync(dir)) {
  if (!/\.(js|css)$/.test(f)) continue;
  const b = fs.readFileSync(new URL(f, dir));
  const s = f.startsWith('charts-') ? sizes.charts : sizes.first;
  s.raw += b.length;
  s.gz += zlib.gzipSync(b, { level: 9 }).length;
}
const kb = (n) => (n / 1024).toFixed(1);
console.log(
  `dashboard bundle: ${kb(sizes.first.raw)} kB raw, ${kb(sizes.first.gz)} kB gzip (JS and CSS every page loads);` +
    ` charts chunk (Overview only, loaded lazily): ${kb(sizes.charts.raw)} kB raw, ${kb(sizes.charts.gz)} kB gzip`,
);
