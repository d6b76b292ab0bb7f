/**
 * The real-face set through the SERVICE's own face analysis: each photo's rendered document
 * through `FaceAnalyzer.analyseDocument`, its selfie through `analyseSelfie` (decoded as the
 * pipeline decodes them), each pair scored as the pipeline scores it (`comparedEmbeddings`, then
 * `similarity`: face_match on the contract's 0-1 scale) and judged by the policy's lines
 * (`POLICY.faceMatch`). Figures: GAR at FAR 1% and 0.1% (each split's own lines), the same-photo
 * rate at those lines, and at the policy's lines cross-photo and same-photo approved, impostors
 * approved and genuine pairs rejected; the grey-portrait test against the renderer's truth.
 * Results: DATA_DIR/results/<mode>/service.json.
 * Usage: node dist/faces/service-measure.js [--mode plain|camera]
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeImage } from '@service/api/pipeline/decode/decode';
import { FaceAnalyzer, type FaceResult } from '@service/api/pipeline/read/faces/faces';
import { comparedEmbeddings, embeddingSimilarity } from '@service/api/pipeline/read/faces/descriptor/compare';
import { cosineOfScore } from '@service/api/pipeline/read/faces/descriptor/face-match-scale';
import { POLICY } from '@service/api/pipeline/decide/policy';
import { DATA_DIR, loadManifest } from './manifest.js';
import { makePairs, type Pair, type Split } from './pairs.js';
import { acceptRate, lineAtFar, rocPoints } from './roc.js';
import { documentImage, greyPortrait, selfieImage, type RenderMode } from './render.js';
import { findFaces } from './measure.js';

/** A score of one pair: face_match, or null where a face (or its descriptor) is missing. */
export function pairScore(doc: FaceResult | null, selfie: FaceResult | null): number | null {
  const compared = doc && selfie ? comparedEmbeddings(doc, selfie) : null;
  return compared ? embeddingSimilarity(...compared) : null;
}

/** The figures of one split's scores at the policy's lines and at its own ROC lines. */
export function splitFigures(scores: { cross: (number | null)[]; same: (number | null)[]; impostor: (number | null)[] }) {
  const found = (s: (number | null)[]) => s.filter((x): x is number => x !== null);
  const cross = found(scores.cross);
  const same = found(scores.same);
  const impostor = found(scores.impostor);
  const roc = rocPoints({ genuine: cross, impostor }, [0.01, 0.001]);
  const { reject, review } = POLICY.faceMatch;
  return {
    counts: { cross: cross.length, crossMissed: scores.cross.length - cross.length, same: same.length, impostor: impostor.length },
    roc: roc.map((r) => ({ ...r, cosine: cosineOfScore(r.line), sameGar: acceptRate(same, r.line) })),
    atPolicy: {
      crossApproved: acceptRate(cross, review),
      crossRejected: cross.filter((x) => x < reject).length,
      sameApproved: acceptRate(same, review),
      impostorsApproved: impostor.filter((x) => x >= review).length,
      impostorsRejected: impostor.filter((x) => x < reject).length,
    },
    crossRange: cross.length ? [Math.min(...cross), Math.max(...cross)] : null,
    impostorMax: impostor.length ? Math.max(...impostor) : null,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const mode = (args.includes('--mode') ? args[args.indexOf('--mode') + 1] : 'plain') as RenderMode;
  const m = loadManifest();
  const sexOf = new Map(m.people.map((p) => [p.id, p.sex]));
  // The photos' own faces place the documents' portraits (the renderer's input, not the service's).
  const { photoFaces } = await findFaces(mode, m.photos, sexOf);
  const faces = await FaceAnalyzer.start();
  const docs = new Map<string, FaceResult | null>();
  const selfies = new Map<string, FaceResult | null>();
  let greyRight = 0;
  let greyKnown = 0;
  for (const p of m.photos) {
    const docFile = await documentImage(p, sexOf.get(p.person)!, mode, photoFaces.get(p.id)?.points ?? null);
    const doc = docFile ? await faces.analyseDocument(await decodeImage(fs.readFileSync(docFile))) : null;
    const selfie = await faces.analyseSelfie(await decodeImage(fs.readFileSync(await selfieImage(p, mode)), 1024));
    docs.set(p.id, doc);
    selfies.set(p.id, selfie);
    if (doc?.grey !== undefined) {
      greyKnown++;
      if (doc.grey === greyPortrait(p)) greyRight++;
    }
  }
  const pairs = makePairs(m);
  const score = (pair: Pair) => pairScore(docs.get(pair.document) ?? null, selfies.get(pair.selfie) ?? null);
  const result: Record<string, unknown> = { mode, policy: POLICY.faceMatch, greyPortraitsRight: `${greyRight}/${greyKnown}` };
  for (const split of ['dev', 'test'] as Split[]) {
    const of = (kind: Pair['kind']) => pairs.filter((p) => p.split === split && p.kind === kind).map(score);
    result[split] = splitFigures({ cross: of('cross_photo'), same: of('same_photo'), impostor: of('impostor') });
  }
  const devImpostors = pairs.filter((p) => p.split === 'dev' && p.kind === 'impostor').map(score);
  const devLine = lineAtFar(
    devImpostors.filter((x): x is number => x !== null),
    0.001,
  );
  const testOf = (kind: Pair['kind']) =>
    pairs
      .filter((p) => p.split === 'test' && p.kind === kind)
      .map(score)
      .filter((x): x is number => x !== null);
  result.devLineOnTest = {
    line: devLine,
    cosine: cosineOfScore(devLine),
    crossGar: acceptRate(testOf('cross_photo'), devLine),
    sameGar: acceptRate(testOf('same_photo'), devLine),
    impostorsAccepted: testOf('impostor').filter((x) => x >= devLine).length,
  };
  result.crossPairs = pairs
    .filter((p) => p.kind === 'cross_photo')
    .map((p) => ({ split: p.split, document: p.document, selfie: p.selfie, score: score(p) }));
  const out = path.join(DATA_DIR, 'results', mode, 'service.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(result, null, 1));
  const { crossPairs: _, ...summary } = result;
  console.log(JSON.stringify(summary, null, 1));
  await faces.release();
}

if (process.argv[1]?.endsWith('service-measure.js')) await main();
