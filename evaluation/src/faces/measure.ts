/**
 * Measures face descriptors on the real-face set. Every photo gives a document image and a
 * selfie image (`render.ts`, `--mode plain|camera`); the face and its five points are found once
 * per image with the service's detector and mesh (`find-face.ts`, cached in
 * DATA_DIR/found-<mode>.json); each configuration then crops (`prepare.ts`), embeds
 * (`descriptors.ts`) and scores the pairs of pairs.ts. Results: DATA_DIR/results/<mode>/<config>.json
 * and one summary line per configuration.
 *
 * A configuration is `descriptor[,option...]`: `zoom=0.8` (the crop's zoom on the template),
 * `bgr`, `centred` (input (x - 127.5) / 128) or `raw`, `grey` (both sides grey), `eq` (CLAHE),
 * `bilinear` (warped straight from the image, no lanczos resampling first), `upright` (no
 * rotation to level the eyes), `native` (onnxruntime where the graph converts), `flip` (the
 * crop's and its mirror image's descriptors averaged).
 * Usage: node dist/faces/measure.js [--mode plain|camera] config ...
 */
import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR, loadManifest, photoFile, type Photo } from './manifest.js';
import { makePairs, type Pair, type Split } from './pairs.js';
import { acceptRate, auc, lineAtFar, rocPoints, type Scored } from './roc.js';
import { DESCRIPTORS, startDescriptor, type DescriptorId, type InputScale } from './descriptors.js';
import { FaceFinder, readRgb, startHuman, type FoundFace } from './find-face.js';
import { prepareCrop, type Preparation } from './prepare.js';
import { documentImage, greyPortrait, selfieImage, type RenderMode } from './render.js';
import { similarity as cosine } from '@service/api/pipeline/read/faces/descriptor/compare';
import { eyeDistance, type RgbImage } from './align.js';
import type { Tf } from './graph-model.js';

export interface Config {
  id: DescriptorId;
  zoom?: number;
  bgr?: boolean;
  scale?: InputScale;
  prep: Preparation;
  native: boolean;
  /** The descriptor of the crop and of its mirror image, averaged (test-time flip). */
  flip?: boolean;
  label: string;
}

export function parseConfig(s: string): Config {
  const [id, ...opts] = s.split(',');
  if (!DESCRIPTORS.includes(id as DescriptorId)) throw new Error(`unknown descriptor ${id}`);
  const c: Config = { id: id as DescriptorId, prep: {}, native: false, label: s };
  for (const o of opts) {
    if (o.startsWith('zoom=')) c.zoom = Number(o.slice(5));
    else if (o === 'bgr') c.bgr = true;
    else if (o === 'rgb') c.bgr = false;
    else if (o === 'centred') c.scale = 'centred128';
    else if (o === 'raw') c.scale = 'raw';
    else if (o === 'unit') c.scale = 'unit';
    else if (o === 'grey') c.prep.grey = true;
    else if (o === 'eq') c.prep.equalise = true;
    else if (o === 'bilinear') c.prep.resample = 'bilinear';
    else if (o === 'upright') c.prep.upright = true;
    else if (o === 'native') c.native = true;
    else if (o === 'flip') c.flip = true;
    else throw new Error(`unknown option ${o}`);
  }
  return c;
}

/** Faces below this eye distance (pixels in the image) are too small to compare: recorded, not used. */
export const MIN_EYE_DISTANCE = 12;

interface Found {
  doc: FoundFace | null;
  selfie: FoundFace | null;
}

export async function findFaces(
  mode: RenderMode,
  photos: Photo[],
  sexOf: Map<string, 'F' | 'M'>,
): Promise<{ found: Map<string, Found>; photoFaces: Map<string, FoundFace | null>; msPerImage: number }> {
  // The faces on the photos themselves (the plain mode's selfies) place the documents' portraits.
  const photoFaces =
    mode === 'plain' ? null : new Map([...(await findFaces('plain', photos, sexOf)).found].map(([id, f]) => [id, f.selfie]));
  const cacheFile = path.join(DATA_DIR, `found-${mode}-v2.json`);
  const cache = fs.existsSync(cacheFile) ? (JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as Record<string, Found>) : {};
  let finder: FaceFinder | null = null;
  let ms = 0;
  let n = 0;
  for (const p of photos) {
    if (cache[p.id]) continue;
    finder ??= await FaceFinder.start();
    const t0 = performance.now();
    const photoFace = photoFaces ? photoFaces.get(p.id)! : await finder.find(await readRgb(photoFile(p)));
    const docFile = await documentImage(p, sexOf.get(p.person)!, mode, photoFace?.points ?? null);
    const doc = docFile ? await finder.find(await readRgb(docFile)) : null;
    const selfie = photoFaces ? await finder.find(await readRgb(await selfieImage(p, mode))) : photoFace;
    ms += performance.now() - t0;
    n += 2;
    cache[p.id] = { doc, selfie };
    fs.writeFileSync(cacheFile, JSON.stringify(cache));
  }
  const found = new Map(Object.entries(cache));
  return { found, photoFaces: photoFaces ?? new Map([...found].map(([id, f]) => [id, f.selfie])), msPerImage: n ? ms / n : NaN };
}

interface Embedded {
  doc: Float32Array | null;
  docGrey: Float32Array | null;
  selfie: Float32Array | null;
  selfieGrey: Float32Array | null;
}

/** The three ways the two sides are compared: as taken, a grey selfie where the portrait is grey, both grey. */
export type ColourRule = 'colour' | 'greyIfGrey' | 'allGrey';
const RULES: ColourRule[] = ['colour', 'greyIfGrey', 'allGrey'];

export interface SplitFigures {
  counts: { cross: number; crossMissed: number; same: number; sameMissed: number; impostor: number; impostorMissed: number };
  crossAuc: number | null;
  /** GAR at FAR 1% and 0.1% (lines from this split's impostors), cross-photo and same-photo at the same lines. */
  cross: { far: number; line: number; gar: number; impostorsAccepted: number }[];
  same: { far: number; gar: number }[];
  /** Every cross-photo pair's score (null: a face not found or too small), for reading failures. */
  crossPairs: { document: string; selfie: string; score: number | null }[];
  /** On test: the dev line for FAR <= 0.1% applied. */
  atDevLine?: { line: number; crossGar: number; sameGar: number; impostorsAccepted: number };
}

export async function measureConfig(
  tf: Tf,
  config: Config,
  photos: Photo[],
  regions: Map<string, Found & { docImg: RgbImage | null; selfieImg: RgbImage | null }>,
  pairs: Pair[],
): Promise<{ msPerFace: number; runtime: string; bytes: number; rules: Record<ColourRule, Record<Split, SplitFigures>> }> {
  const d = await startDescriptor(config.id, tf, { native: config.native, bgr: config.bgr, scale: config.scale });
  const template = d.template(config.zoom);
  const emb = new Map<string, Embedded>();
  let ms = 0;
  let faces = 0;
  const embed = async (img: RgbImage | null, face: FoundFace | null, grey: boolean) => {
    if (!img || !face || eyeDistance(face.points) < MIN_EYE_DISTANCE) return null;
    const t0 = performance.now();
    const crop = await prepareCrop(img, face.points, template, { ...config.prep, grey: grey || config.prep.grey });
    const v = config.flip ? meanOfUnit(await d.embed(crop), await d.embed(mirrored(crop))) : await d.embed(crop);
    ms += performance.now() - t0;
    faces++;
    return v;
  };
  for (const p of photos) {
    const f = regions.get(p.id)!;
    emb.set(p.id, {
      doc: await embed(f.docImg, f.doc, false),
      docGrey: await embed(f.docImg, f.doc, true),
      selfie: await embed(f.selfieImg, f.selfie, false),
      selfieGrey: await embed(f.selfieImg, f.selfie, true),
    });
  }
  const greyDoc = new Map(photos.map((p) => [p.id, greyPortrait(p)]));
  const score = (pair: Pair, rule: ColourRule): number | null => {
    const a = emb.get(pair.document)!;
    const b = emb.get(pair.selfie)!;
    const doc = rule === 'allGrey' ? a.docGrey : a.doc;
    const selfie = rule === 'allGrey' || (rule === 'greyIfGrey' && greyDoc.get(pair.document)) ? b.selfieGrey : b.selfie;
    return doc && selfie ? cosine(doc, selfie) : null;
  };
  const rules = {} as Record<ColourRule, Record<Split, SplitFigures>>;
  for (const rule of RULES) {
    const bySplit = {} as Record<Split, SplitFigures>;
    const collect = (split: Split, kind: Pair['kind']) => {
      const s = pairs.filter((p) => p.split === split && p.kind === kind).map((p) => score(p, rule));
      return { scores: s.filter((x): x is number => x !== null), missed: s.filter((x) => x === null).length };
    };
    for (const split of ['dev', 'test'] as Split[]) {
      const cross = collect(split, 'cross_photo');
      const same = collect(split, 'same_photo');
      const imp = collect(split, 'impostor');
      const cs: Scored = { genuine: cross.scores, impostor: imp.scores };
      const roc = rocPoints(cs, [0.01, 0.001]);
      bySplit[split] = {
        counts: {
          cross: cross.scores.length,
          crossMissed: cross.missed,
          same: same.scores.length,
          sameMissed: same.missed,
          impostor: imp.scores.length,
          impostorMissed: imp.missed,
        },
        crossAuc: cross.scores.length ? auc(cs) : null,
        cross: roc,
        same: roc.map((r) => ({ far: r.far, gar: acceptRate(same.scores, r.line) })),
        crossPairs: pairs
          .filter((p) => p.split === split && p.kind === 'cross_photo')
          .map((p) => ({ document: p.document, selfie: p.selfie, score: score(p, rule) })),
      };
      if (split === 'test') {
        const line = lineAtFar(collect('dev', 'impostor').scores, 0.001);
        bySplit.test.atDevLine = {
          line,
          crossGar: acceptRate(cross.scores, line),
          sameGar: acceptRate(same.scores, line),
          impostorsAccepted: imp.scores.filter((x) => x >= line).length,
        };
      }
    }
    rules[rule] = bySplit;
  }
  return { msPerFace: ms / faces, runtime: d.runtime, bytes: d.bytes, rules };
}

/** A square of 8 eye distances around the eyes (every crop measured lies inside it), the face's points moved into it. */
export async function faceRegion(img: RgbImage, face: FoundFace): Promise<{ img: RgbImage; face: FoundFace }> {
  const [l, r] = face.points;
  const cx = (l[0] + r[0]) / 2;
  const cy = (l[1] + r[1]) / 2;
  const half = 4 * eyeDistance(face.points);
  const x0 = Math.max(0, Math.floor(cx - half));
  const y0 = Math.max(0, Math.floor(cy - half));
  const x1 = Math.min(img.width, Math.ceil(cx + half));
  const y1 = Math.min(img.height, Math.ceil(cy + half));
  const w = x1 - x0;
  const data = new Uint8Array(w * (y1 - y0) * 3);
  for (let y = y0; y < y1; y++) data.set(img.data.subarray((y * img.width + x0) * 3, (y * img.width + x1) * 3), (y - y0) * w * 3);
  const shift = ([x, y]: [number, number]): [number, number] => [x - x0, y - y0];
  return {
    img: { data, width: w, height: y1 - y0 },
    face: {
      ...face,
      points: face.points.map(shift) as FoundFace['points'],
      box: [face.box[0] - x0, face.box[1] - y0, face.box[2], face.box[3]],
    },
  };
}

const pct = (x: number) => (Number.isFinite(x) ? `${Math.round(100 * x)}` : '-');

export function summaryLine(label: string, r: Awaited<ReturnType<typeof measureConfig>>, rule: ColourRule): string {
  const dev = r.rules[rule].dev;
  const test = r.rules[rule].test;
  return [
    label.padEnd(34),
    rule.padEnd(10),
    `${r.msPerFace.toFixed(0)}ms ${r.runtime}`.padEnd(12),
    `auc ${dev.crossAuc?.toFixed(3)}/${test.crossAuc?.toFixed(3)}`,
    `GAR@1% ${pct(dev.cross[0]!.gar)}/${pct(test.cross[0]!.gar)}`,
    `@0.1% ${pct(dev.cross[1]!.gar)}/${pct(test.cross[1]!.gar)}`,
    `same@1% ${pct(dev.same[0]!.gar)}/${pct(test.same[0]!.gar)} @0.1% ${pct(dev.same[1]!.gar)}/${pct(test.same[1]!.gar)}`,
    `devline->test cross ${pct(test.atDevLine!.crossGar)} same ${pct(test.atDevLine!.sameGar)} imp ${test.atDevLine!.impostorsAccepted}`,
  ].join('  ');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const modeAt = args.indexOf('--mode');
  const mode = (modeAt >= 0 ? args.splice(modeAt, 2)[1] : 'plain') as RenderMode;
  const configs = args.map(parseConfig);
  const m = loadManifest();
  const sexOf = new Map(m.people.map((p) => [p.id, p.sex]));
  const { found, photoFaces, msPerImage } = await findFaces(mode, m.photos, sexOf);
  if (Number.isFinite(msPerImage)) console.log(`face finding: ${msPerImage.toFixed(0)} ms per image`);
  // Only the region around each face is kept in memory (whole photos of 169 people would not fit).
  const regions = new Map<string, Found & { docImg: RgbImage | null; selfieImg: RgbImage | null }>();
  for (const p of m.photos) {
    const f = found.get(p.id)!;
    const docFile = await documentImage(p, sexOf.get(p.person)!, mode, photoFaces.get(p.id)?.points ?? null);
    const doc = f.doc && docFile ? await faceRegion(await readRgb(docFile), f.doc) : null;
    const selfie = f.selfie ? await faceRegion(await readRgb(await selfieImage(p, mode)), f.selfie) : null;
    regions.set(p.id, { doc: doc?.face ?? null, selfie: selfie?.face ?? null, docImg: doc?.img ?? null, selfieImg: selfie?.img ?? null });
  }
  const pairs = makePairs(m);
  const human = await startHuman();
  const dir = path.join(DATA_DIR, 'results', mode);
  fs.mkdirSync(dir, { recursive: true });
  for (const c of configs) {
    const r = await measureConfig(human.tf as unknown as Tf, c, m.photos, regions, pairs);
    fs.writeFileSync(path.join(dir, `${c.label.replace(/[^a-z0-9=.,-]/gi, '_')}.json`), JSON.stringify({ config: c, ...r }, null, 1));
    for (const rule of RULES) console.log(summaryLine(c.label, r, rule));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

function mirrored(img: RgbImage): RgbImage {
  const out = new Uint8Array(img.data.length);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const from = (y * img.width + x) * 3;
      const to = (y * img.width + (img.width - 1 - x)) * 3;
      out[to] = img.data[from]!;
      out[to + 1] = img.data[from + 1]!;
      out[to + 2] = img.data[from + 2]!;
    }
  }
  return { data: out, width: img.width, height: img.height };
}

function meanOfUnit(a: Float32Array | number[], b: Float32Array | number[]): Float32Array {
  const na = Math.hypot(...a);
  const nb = Math.hypot(...b);
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! / na + b[i]! / nb;
  return out;
}
