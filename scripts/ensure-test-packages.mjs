// What the test suites need from Debian, installed when missing, as part of the test command (a
// fresh machine needs no manual step): Chromium for the Playwright suites (Playwright cannot
// download a browser here), the DejaVu, Liberation and OCR-B fonts that synthetic documents are drawn with,
// and Ceph's radosgw (with a monitor and an OSD), the real S3 server the S3 blob store is tested against.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const fonts = (() => {
  try {
    return execFileSync('fc-list', { encoding: 'utf8' });
  } catch {
    return '';
  }
})();
const missing = [];
if (!fs.existsSync(chromium)) missing.push('chromium');
if (!/DejaVu Sans/.test(fonts)) missing.push('fonts-dejavu-core');
if (!/OCR B/.test(fonts)) missing.push('fonts-ocr-b');
if (!/Liberation Sans/.test(fonts)) missing.push('fonts-liberation'); // evaluation documents' second family
// Without recommends: about 60 MB instead of the whole Ceph suite (shared/notes/storage.md).
const ceph = ['radosgw', 'ceph-mon', 'ceph-osd'].filter((b) => !fs.existsSync(`/usr/bin/${b}`));
if (missing.length === 0 && ceph.length === 0) process.exit(0);

if (process.getuid?.() !== 0) {
  const all = [...missing, ...ceph];
  console.error(
    `Missing for the tests: ${all.join(', ')}. Install them (sudo apt-get install -y --no-install-recommends ${all.join(' ')}).`,
  );
  process.exit(1);
}
console.log(`Installing from Debian for the tests: ${[...missing, ...ceph].join(', ')} (one time)...`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
if (missing.length) execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env });
if (ceph.length) execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...ceph], { stdio: 'inherit', env });
