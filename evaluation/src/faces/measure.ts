/**
 * Measures each descriptor on the real-face set: every photo is rendered once onto a document
 * (tools/fixtures' renderDocument, its portrait grey on 4 documents in 10, deterministic by the
 * photo's id) and once used as the selfie (the photo itself); the runner embeds both with each
 * descriptor, scores the pairs of pairs.ts and writes JSON results and an ROC table to
 * DATA_DIR/results. Usage: node dist/faces/measure.js [descriptor ...]
 */
import fs from 'node:fs';
import path from 'node:path';
import { Rng } from '@service/fixtures/random';
import { renderDocument, type DocumentData } from '@service/fixtures/documents';
import { DATA_DIR, loadManifest, photoFile, type Photo } from './manifest.js';
import { makePairs, type Pair, type Split } from './pairs.js';
import { auc, rocPoints, type Scored } from './roc.js';
import { DESCRIPTORS, startDescriptor, type DescriptorId } from './descriptors.js';

const RENDERED_DIR = path.join(DATA_DIR, 'rendered');
const RESULTS_DIR = path.join(DATA_DIR, 'results');

/** The photo printed on a rendered document's front (an ID-1 card, 1000 px wide), cached on disk. */
async function documentImage(p: Photo, sex: 'F' | 'M'): Promise<{ file: string; grey: boolean }> {
  const rng = Rng.of('faces-doc', p.id);
  const grey = rng.next() < 0.4;
  const file = path.join(RENDERED_DIR, `${p.id}.doc.png`);
  if (!fs.existsSync(file)) {
    const d: DocumentData = {
      kind: 'id_card_printed',
      layout: Math.floor(rng.next() * 3),
      font: 'DejaVu Sans',
      name: { surname: 'SPECIMEN', given: ['ALEX'] },
      upperCase: true,
      sex,
      birth: '1970-01-01',
      issue: '2020-01-01',
      expiry: '2030-01-01',
      number: 'X0000000',
      nationality: 'UTO',
      country: 'UT',
      countryName: 'Utopia',
      dateStyle: 'dd.mm.yyyy',
      portrait: photoFile(p),
      greyPortrait: grey,
    };
    const { front } = await renderDocument(rng, d, 1000);
    fs.writeFileSync(file, front.png);
  }
  return { file, grey };
}

interface Embedded {
  doc: Float32Array | null;
  selfie: Float32Array | null;
  selfieGrey: Float32Array | null;
  msPerFace: number;
}

async function main(): Promise<void> {
  const wanted = (process.argv.slice(2) as DescriptorId[]).filter((d) => DESCRIPTORS.includes(d));
  const ids = wanted.length ? wanted : DESCRIPTORS;
  fs.mkdirSync(RENDERED_DIR, { recursive: true });
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const m = loadManifest();
  const sexOf = new Map(m.people.map((p) => [p.id, p.sex]));
  const docs = new Map<string, { file: string; grey: boolean }>();
  for (const p of m.photos) docs.set(p.id, await documentImage(p, sexOf.get(p.person)!));
  const pairs = makePairs(m);
  for (const id of ids) {
    const d = await startDescriptor(id, 1024);
    const emb = new Map<string, Embedded>();
    let faces = 0;
    let ms = 0;
    for (const p of m.photos) {
      const t0 = performance.now();
      const doc = await d.embed(fs.readFileSync(docs.get(p.id)!.file));
      const selfieBytes = fs.readFileSync(photoFile(p));
      const selfie = await d.embed(selfieBytes, { grey: false });
      const selfieGrey = await d.embed(selfieBytes, { grey: true });
      ms += performance.now() - t0;
      faces += 3;
      emb.set(p.id, { doc, selfie, selfieGrey, msPerFace: 0 });
    }
    const result = { descriptor: id, msPerFace: ms / faces, splits: {} as Record<string, unknown> };
    for (const split of ['dev', 'test'] as Split[]) {
      const score = (pair: Pair, greySelfie: boolean) => {
        const a = emb.get(pair.document)!;
        const b = emb.get(pair.selfie)!;
        // A grey selfie only where the document's portrait is grey (the preparation measured).
        const s = greySelfie && docs.get(pair.document)!.grey ? b.selfieGrey : b.selfie;
        return a.doc && s ? d.similarity(a.doc, s) : null;
      };
      const byKind = (kind: Pair['kind'], grey: boolean) => {
        const scores = pairs.filter((p) => p.split === split && p.kind === kind).map((p) => score(p, grey));
        return { scores: scores.filter((s): s is number => s !== null), missed: scores.filter((s) => s === null).length };
      };
      const out: Record<string, unknown> = {};
      for (const grey of [false, true]) {
        const cross = byKind('cross_photo', grey);
        const same = byKind('same_photo', grey);
        const imp = byKind('impostor', grey);
        const cs: Scored = { genuine: cross.scores, impostor: imp.scores };
        const ss: Scored = { genuine: same.scores, impostor: imp.scores };
        out[grey ? 'greySelfie' : 'colourSelfie'] = {
          counts: {
            cross: cross.scores.length,
            crossMissed: cross.missed,
            same: same.scores.length,
            impostor: imp.scores.length,
            impostorMissed: imp.missed,
          },
          cross: { auc: cs.genuine.length ? auc(cs) : null, roc: rocPoints(cs) },
          same: { auc: ss.genuine.length ? auc(ss) : null, roc: rocPoints(ss) },
          crossScores: cross.scores,
        };
      }
      result.splits[split] = out;
    }
    fs.writeFileSync(path.join(RESULTS_DIR, `${id}.json`), JSON.stringify(result, null, 1));
    console.log(`${id}: ${(ms / faces).toFixed(0)} ms per face`);
    for (const split of ['dev', 'test']) {
      const g = (
        result.splits[split] as Record<
          string,
          { counts: object; cross: { auc: number; roc: { far: number; gar: number; line: number }[] }; same: { roc: { gar: number }[] } }
        >
      ).greySelfie!;
      const c = (result.splits[split] as typeof result.splits & Record<string, typeof g>).colourSelfie as typeof g;
      const row = (x: typeof g) =>
        `auc ${x.cross.auc?.toFixed(3)} GAR@1% ${x.cross.roc[2]!.gar.toFixed(2)} (line ${x.cross.roc[2]!.line.toFixed(3)}) GAR@0.1% ${x.cross.roc[3]!.gar.toFixed(2)} same@1% ${x.same.roc[2]!.gar.toFixed(2)} same@0.1% ${x.same.roc[3]!.gar.toFixed(2)}`;
      console.log(`  ${split} ${JSON.stringify(g.counts)}\n    colour selfie: ${row(c)}\n    grey-if-grey:  ${row(g)}`);
    }
  }
}

await main();
