/** `npm run eval:build`: writes the evaluation set to eval-set/ (images and cases.json) for inspection. */
import fs from 'node:fs';
import path from 'node:path';
import { buildEvalSet } from './eval-set.js';

const out = path.resolve(process.argv[2] ?? 'eval-set');
fs.mkdirSync(out, { recursive: true });
const cases = await buildEvalSet();
for (const c of cases) {
  fs.writeFileSync(path.join(out, `${c.id}.doc.jpg`), c.docFront);
  fs.writeFileSync(path.join(out, `${c.id}.selfie.jpg`), c.selfie);
}
fs.writeFileSync(path.join(out, 'cases.json'), JSON.stringify(cases.map(({ docFront: _d, selfie: _s, ...rest }) => rest), null, 2));
console.log(`${cases.length} cases written to ${out}`);
