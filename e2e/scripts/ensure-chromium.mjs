// The suites drive Debian's Chromium (Playwright cannot download a browser here). Install it from
// apt when it is missing, as part of the test command, so a fresh machine needs no manual step.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (fs.existsSync(path)) process.exit(0);
if (process.getuid?.() !== 0) {
  console.error(`Chromium not found at ${path}. Install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
  process.exit(1);
}
console.log('Installing Debian chromium for the Playwright suites (one time)...');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', 'chromium', 'fonts-dejavu-core'], { stdio: 'inherit', env });
