// Builds native/bin/ocr-engine (native/ocr-engine.cpp) against Debian's libtesseract: the pipeline
// reads pages with it about three times faster than with tesseract.js (docs/pipeline.md). Runs as
// part of the build. Installs `libtesseract-dev` (about 10 MB with Leptonica) from Debian when it is
// missing and we are root; when the engine cannot be built, says so and leaves the pipeline on
// tesseract.js (OCR_ENGINE=auto), unless OCR_ENGINE=native asks for it, which then fails the build.
// OCR_ENGINE=wasm skips it.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'native', 'ocr-engine.cpp');
const target = path.join(root, 'native', 'bin', 'ocr-engine');
const tessdata = path.join(root, 'models', 'tessdata', 'plain');
const wanted = process.env.OCR_ENGINE ?? 'auto';

if (wanted === 'wasm') process.exit(0);

function giveUp(why) {
  fs.rmSync(target, { force: true });
  if (wanted === 'native') {
    console.error(`ocr-engine: ${why} (OCR_ENGINE=native needs it)`);
    process.exit(1);
  }
  console.warn(`ocr-engine: ${why}; the pipeline reads with tesseract.js (a page read about 2.8x slower). See docs/deployment.md.`);
  process.exit(0);
}

const has = (cmd, args) => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const headers = () => fs.existsSync('/usr/include/tesseract/baseapi.h');

/** The engine answers "ready" once its models are loaded, or it is not usable. */
function smokeTest() {
  return new Promise((resolve) => {
    const child = spawn(target, [tessdata, 'eng'], { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = Buffer.alloc(0);
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', (c) => {
      out = Buffer.concat([out, c]);
      if (out.length >= 9) child.stdin.end();
    });
    child.on('error', () => resolve(false));
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(out.length >= 9 && out.readUInt32LE(0) === 5 && out.subarray(4, 9).toString() === 'ready');
    });
  });
}

const upToDate = fs.existsSync(target) && fs.statSync(target).mtimeMs >= fs.statSync(source).mtimeMs;
if (!upToDate) {
  if (!headers() || !has('g++', ['--version'])) {
    if (process.getuid?.() !== 0 || !has('apt-get', ['--version']))
      giveUp('libtesseract-dev or g++ is missing (apt-get install libtesseract-dev g++)');
    console.log('ocr-engine: installing libtesseract-dev and g++ from Debian (one time)...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const install = () =>
      execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'libtesseract-dev', 'g++'], { stdio: 'inherit', env });
    try {
      install();
    } catch {
      try {
        execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
        install();
      } catch {
        giveUp('installing libtesseract-dev failed');
      }
    }
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  try {
    execFileSync('g++', ['-O2', '-std=c++17', '-Wall', '-o', target, source, '-ltesseract'], { stdio: 'inherit' });
  } catch {
    giveUp('compiling native/ocr-engine.cpp failed');
  }
  console.log('ocr-engine: built native/bin/ocr-engine');
}
if (!(await smokeTest())) giveUp('native/bin/ocr-engine does not start');
