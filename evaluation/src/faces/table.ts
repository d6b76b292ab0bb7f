/**
 * The comparison table from measure.ts's results: one markdown row per configuration and colour
 * rule, GAR at FAR 1% and 0.1% on dev and test (lines from each split's own impostors), the dev
 * line for FAR <= 0.1% applied to test, same-photo at the same lines, cost and model size.
 * Usage: node dist/faces/table.js [--mode plain|camera] [--rule colour|greyIfGrey|allGrey] config ...
 */
import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR } from './manifest.js';
import type { ColourRule, SplitFigures } from './measure.js';

interface Result {
  msPerFace: number;
  runtime: string;
  bytes: number;
  rules: Record<ColourRule, { dev: SplitFigures; test: SplitFigures }>;
}

const pct = (x: number) => (Number.isFinite(x) ? `${Math.round(100 * x)}%` : '-');

export function row(label: string, r: Result, rule: ColourRule): string {
  const { dev, test } = r.rules[rule];
  const at = test.atDevLine!;
  return `| ${label} | ${rule} | ${r.msPerFace.toFixed(0)} (${r.runtime}) | ${(r.bytes / 2 ** 20).toFixed(1)} MB | ${dev.crossAuc?.toFixed(3)} / ${test.crossAuc?.toFixed(3)} | ${pct(dev.cross[0]!.gar)} / ${pct(test.cross[0]!.gar)} | ${pct(dev.cross[1]!.gar)} / ${pct(test.cross[1]!.gar)} | ${at.line.toFixed(3)}: ${pct(at.crossGar)}, ${at.impostorsAccepted} of ${test.counts.impostor} | ${pct(dev.same[1]!.gar)} / ${pct(test.same[1]!.gar)} |`;
}

export const HEADER = [
  '| configuration | colour rule | ms/face | model | AUC dev / test | GAR@1% dev / test | GAR@0.1% dev / test | dev 0.1% line on test: GAR, impostors in | same-photo @0.1% dev / test |',
  '|---|---|---|---|---|---|---|---|---|',
];

function main(): void {
  const args = process.argv.slice(2);
  const take = (flag: string, fallback: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args.splice(at, 2)[1]! : fallback;
  };
  const mode = take('--mode', 'plain');
  const rule = take('--rule', 'greyIfGrey') as ColourRule;
  const dir = path.join(DATA_DIR, 'results', mode);
  console.log(HEADER.join('\n'));
  for (const label of args) {
    const file = path.join(dir, `${label.replace(/[^a-z0-9=.,-]/gi, '_')}.json`);
    if (!fs.existsSync(file)) continue;
    console.log(row(label, JSON.parse(fs.readFileSync(file, 'utf8')) as Result, rule));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
