/**
 * `npm run eval:real`: runs our pipeline and PassportEye on the real-document set, scores them
 * per field and per layout (legible documents only), writes results.json and summary.md, and
 * prints the dev split's failures case by case. The test split's cases are printed only with
 * --show-test-cases (the lead's final report); its figures always are.
 *
 *   --readers ours,passporteye   which readers run (default both)
 *   --split dev|test|all         which cases run (default all)
 *   --only id,id                 just these cases
 *   --out DIR                    where results go (default evaluation/results/real-documents)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { loadManifest, type RealDocumentCase } from './manifest.js';
import { ensureImage } from './images.js';
import { SPLITS, type Split } from './layouts.js';
import { failureLines, splitTable, summariesOf, type ReaderName, type Results } from './report.js';
import { runOurs } from './run-ours.js';
import { runPassportEye } from './run-passporteye.js';

const { values } = parseArgs({
  options: {
    readers: { type: 'string', default: 'ours,passporteye' },
    split: { type: 'string', default: 'all' },
    only: { type: 'string' },
    out: { type: 'string', default: fileURLToPath(new URL('../../results/real-documents', import.meta.url)) },
    'show-test-cases': { type: 'boolean', default: false },
  },
});

const readers = values.readers.split(',').filter((r): r is ReaderName => r === 'ours' || r === 'passporteye');
const manifest = loadManifest();
const only = values.only ? new Set(values.only.split(',')) : null;
const cases = manifest.cases.filter((c) => (values.split === 'all' || c.split === values.split) && (only === null || only.has(c.id)));
if (cases.length === 0) throw new Error('no case selected');
for (const c of cases) for (const img of [c.images.front, c.images.back]) if (img) await ensureImage(img);

const showCase = (c: RealDocumentCase): boolean => c.split === 'dev' || values['show-test-cases'];
const progress = (reader: ReaderName) => {
  let n = 0;
  return () => process.stderr.write(`\r${reader}: ${++n}/${cases.length}   `);
};

const results: Results = {};
const runs: Promise<void>[] = [];
if (readers.includes('passporteye')) runs.push(runPassportEye(cases, progress('passporteye')).then((m) => void (results.passporteye = m)));
if (readers.includes('ours')) runs.push(runOurs(cases, progress('ours')).then((m) => void (results.ours = m)));
await Promise.all(runs);
process.stderr.write('\n');

const sections: string[] = [];
const splits: (Split | 'all')[] = [...SPLITS.filter((s) => cases.some((c) => c.split === s)), 'all'];
for (const split of splits) {
  const subset = split === 'all' ? cases : cases.filter((c) => c.split === split);
  sections.push(`### ${split} (${subset.length} documents)\n\n${splitTable(split, summariesOf(subset, results))}`);
}
const summary = sections.join('\n\n');
console.log(summary);

for (const reader of readers) {
  const lines = cases.filter(showCase).flatMap((c) => failureLines(c, results[reader]!.get(c.id)!));
  console.log(
    `\n${reader}: fields wrong on ${values['show-test-cases'] ? 'every' : 'the dev'} split's cases\n${lines.join('\n') || '(none)'}`,
  );
}

mkdirSync(values.out, { recursive: true });
const perCase = cases.filter(showCase).map((c) => ({
  id: c.id,
  split: c.split,
  layout: c.layout,
  ...Object.fromEntries(readers.map((r) => [r, results[r]!.get(c.id)])),
}));
writeFileSync(join(values.out, 'results.json'), JSON.stringify({ at: new Date().toISOString(), readers, cases: perCase }, null, 2));
writeFileSync(join(values.out, 'summary.md'), summary + '\n');
console.log(`\nwritten: ${join(values.out, 'results.json')}, summary.md`);
