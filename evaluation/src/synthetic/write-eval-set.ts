/**
 * `npm run eval:build [-- --split dev|heldout] [--per-class N]`: writes the evaluation set to
 * eval-set/<split>/ (ignored by git): each case's document front (and back), selfie, and
 * cases.json with its class, expected verdicts and reason, typed name and capture parameters.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildCase, caseClasses, stratifiedIndexes, type EvalCase, type Split } from '@service/fixtures/eval-set';
import { DEFAULT_EVAL_DIR, writeCase, writeManifest } from './eval-set-files.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const splits: Split[] = arg('split') ? [arg('split') as Split] : ['dev', 'heldout'];
const perClass = arg('per-class') ? Number(arg('per-class')) : null;
const root = path.resolve(arg('out') ?? DEFAULT_EVAL_DIR);
// Cases are independent: build a few at once (sharp uses its own threads too).
const parallel = Math.max(1, Math.min(4, os.availableParallelism()));

for (const split of splits) {
  const dir = path.join(root, split);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const indexes = perClass ? stratifiedIndexes(split, perClass) : caseClasses(split).map((_, i) => i);
  const started = Date.now();
  const cases: EvalCase[] = new Array<EvalCase>(indexes.length);
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let k = next++; k < indexes.length; k = next++) {
        const c = await buildCase(split, indexes[k]!);
        writeCase(dir, c);
        // Keep only the metadata in memory.
        cases[k] = { ...c, docFront: Buffer.alloc(0), docBack: null, selfie: Buffer.alloc(0) };
        if (++done % 25 === 0) console.log(`${split}: ${done}/${indexes.length} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      }
    }),
  );
  writeManifest(dir, split, cases);
  console.log(`${split}: ${cases.length} cases written to ${dir} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
