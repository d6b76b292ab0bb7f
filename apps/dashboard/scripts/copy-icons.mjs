// Web Awesome's icons come from our own origin: its built-in "system" icons (Font Awesome Free,
// CC BY 4.0) are written as files under dist/icons, and the app points both icon libraries there
// (the default library would otherwise load from a third-party host).
import fs from 'node:fs';
import { icons } from '@awesome.me/webawesome/dist/components/icon/library.system.js';

const out = new URL('../dist/icons/', import.meta.url);
fs.mkdirSync(out, { recursive: true });
let n = 0;
for (const [variant, set] of Object.entries(icons)) {
  for (const [name, svg] of Object.entries(set)) {
    fs.writeFileSync(new URL(`${variant}-${name}.svg`, out), svg);
    n++;
  }
}
console.log(`dashboard: ${n} icons written to dist/icons`);
