// Copies the demo page's static files next to the compiled code (tsc copies only .ts output).
import fs from 'node:fs';
fs.cpSync(new URL('../src/demo/public', import.meta.url), new URL('../dist/demo/public', import.meta.url), { recursive: true });
