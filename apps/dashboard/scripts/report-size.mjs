// Prints the size of what a browser downloads for the dashboard (JS and CSS, raw and gzip).
import fs from 'node:fs';
import zlib from 'node:zlib';

const dir = new URL('../dist/assets/', import.meta.url);
let raw = 0;
let gz = 0;
for (const f of fs.readdirSync(dir)) {
  if (!/\.(js|css)$/.test(f)) continue;
  const b = fs.readFileSync(new URL(f, dir));
  raw += b.length;
  gz += zlib.gzipSync(b, { level: 9 }).length;
}
console.log(`dashboard bundle: ${(raw / 1024).toFixed(1)} kB raw, ${(gz / 1024).toFixed(1)} kB gzip (all JS and CSS)`);
