import fs from 'node:fs';
import path from 'node:path';
import {
  buildCase,
  caseClasses,
  GENERATOR_VERSION,
  SPLIT_SEEDS,
  type EvalCase,
  type EvalCaseMeta,
  type Split,
} from '@service/fixtures/eval-set';

/**
 * The evaluation set on disk (outside git: `eval-set/` is ignored): one folder per split with each
 * case's images and a `cases.json` of everything else. The benchmark reads cases from here when
 * they were written by this generator version, and builds the missing ones in memory otherwise.
 */
export const DEFAULT_EVAL_DIR = path.resolve(process.env.EVAL_SET_DIR ?? 'eval-set');

interface Manifest {
  generatorVersion: number;
  split: Split;
  /** The split's seed when written: a split drawn again with another seed is rebuilt. */
  seed?: string;
  cases: EvalCaseMeta[];
}

const files = (dir: string, id: string) => ({
  front: path.join(dir, `${id}.front.jpg`),
  back: path.join(dir, `${id}.back.jpg`),
  selfie: path.join(dir, `${id}.selfie.jpg`),
});

export function writeCase(dir: string, c: EvalCase): void {
  const f = files(dir, c.id);
  fs.writeFileSync(f.front, c.docFront);
  if (c.docBack) fs.writeFileSync(f.back, c.docBack);
  fs.writeFileSync(f.selfie, c.selfie);
}

export function writeManifest(dir: string, split: Split, cases: EvalCase[]): void {
  const manifest: Manifest = {
    generatorVersion: GENERATOR_VERSION,
    split,
    seed: SPLIT_SEEDS[split],
    cases: cases.map(({ docFront: _f, docBack: _b, selfie: _s, ...meta }) => meta),
  };
  fs.writeFileSync(path.join(dir, 'cases.json'), JSON.stringify(manifest, null, 1));
}

function readStored(dir: string, split: Split): Map<number, EvalCaseMeta> {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(dir, 'cases.json'), 'utf8')) as Manifest;
    if (m.generatorVersion !== GENERATOR_VERSION || m.split !== split || m.seed !== SPLIT_SEEDS[split]) return new Map();
    return new Map(m.cases.map((c) => [c.index, c]));
  } catch {
    return new Map();
  }
}

/** Cases `indexes` of `split` (default: all), from disk when stored by this generator version. */
export async function loadSplit(
  split: Split,
  indexes?: number[],
  root = DEFAULT_EVAL_DIR,
): Promise<{ cases: EvalCase[]; fromDisk: number }> {
  const dir = path.join(root, split);
  const stored = readStored(dir, split);
  const idx = indexes ?? caseClasses(split).map((_, i) => i);
  const cases: EvalCase[] = [];
  let fromDisk = 0;
  for (const i of idx) {
    const meta = stored.get(i);
    if (meta) {
      const f = files(dir, meta.id);
      try {
        cases.push({
          ...meta,
          docFront: fs.readFileSync(f.front),
          docBack: meta.back ? fs.readFileSync(f.back) : null,
          selfie: fs.readFileSync(f.selfie),
        });
        fromDisk++;
        continue;
      } catch {
        // a file is missing: build the case again
      }
    }
    cases.push(await buildCase(split, i));
  }
  return { cases, fromDisk };
}
