/**
 * `node dist/capture/guided-vs-blind.js [--cases N] [--frames K] [--split dev|heldout]`: how often
 * a genuine document is approved when the widget's guidance chooses the moment of the photo,
 * against a photo taken blind.
 *
 * Each genuine case of the evaluation set (its rendered document photo, its selfie, its typed
 * name) is filmed as a hand-held session of K frames; each frame draws its own conditions, as a
 * hand moves: the distance (the document shrunk on a desk, 45-100% of its size), defocus (40% of
 * frames, 0.3-1.2% of the width), a dim room (20%, exposure 0.25-0.5), a lamp's reflection (20%).
 * Blind: the first frame is the photo (the user presses the shutter when they like). Guided: the
 * widget's own guidance (`@service/widget/guidance`, the code its frame worker runs) reads each
 * frame at the width it reads the camera, and the photo is the first frame it calls `ready`; when
 * none is, the user presses the shutter on the last one. Both photos go through the pipeline in
 * this process with the case's selfie and typed name.
 */
import { buildCase, caseClasses, type Split } from '@service/fixtures/eval-set';
import { VisionPipeline } from '@service/api/pipeline/vision-pipeline';
import { adviceFor, readFrame, MEASURE_WIDTH } from '@service/widget/guidance';
import sharp from 'sharp';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const split = arg('split', 'dev') as Split;
const CASES = Number(arg('cases', '40'));
const FRAMES = Number(arg('frames', '8'));
const NOW = new Date('2026-11-23T12:00:00Z');

/** A small seeded generator (mulberry32): the same sessions every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Conditions {
  distance: number;
  defocus: number;
  exposure: number;
  glare: boolean;
}

function draw(r: () => number): Conditions {
  return {
    distance: 0.45 + 0.55 * r(),
    defocus: r() < 0.4 ? 0.003 + 0.009 * r() : 0,
    exposure: r() < 0.2 ? 0.25 + 0.25 * r() : 1,
    glare: r() < 0.2,
  };
}

/** The case's document photo as filmed under these conditions (same frame size, JPEG). */
async function film(photo: Buffer, c: Conditions, r: () => number): Promise<Buffer> {
  const meta = await sharp(photo).metadata();
  const W = meta.width!;
  const H = meta.height!;
  let frame = photo;
  if (c.distance < 0.99) {
    const w = Math.round(W * c.distance);
    const h = Math.round(H * c.distance);
    const small = await sharp(photo).resize(w, h).toBuffer();
    frame = await sharp({ create: { width: W, height: H, channels: 3, background: '#6b5b4b' } })
      .composite([{ input: small, left: Math.round((W - w) * r()), top: Math.round((H - h) * r()) }])
      .jpeg({ quality: 92 })
      .toBuffer();
  }
  if (c.glare) {
    const rx = Math.round(W * (0.06 + 0.05 * r()));
    const cx = Math.round(W * (0.3 + 0.4 * r()));
    const cy = Math.round(H * (0.3 + 0.4 * r()));
    const lamp = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><radialGradient id="g"><stop offset="0.5" stop-color="#fff"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${Math.round(rx * 0.75)}" fill="url(#g)"/></svg>`,
    );
    frame = await sharp(frame)
      .composite([{ input: lamp, blend: 'screen' }])
      .jpeg({ quality: 92 })
      .toBuffer();
  }
  let s = sharp(frame);
  if (c.defocus > 0) s = s.blur(Math.max(0.3, c.defocus * W));
  if (c.exposure < 1) s = s.linear(c.exposure, 0);
  return s.jpeg({ quality: 90 }).toBuffer();
}

async function guidanceOf(frame: Buffer): Promise<string> {
  const { data, info } = await sharp(frame).resize({ width: MEASURE_WIDTH }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return adviceFor(readFrame({ data, width: info.width, height: info.height }, null).reading);
}

const classes = caseClasses(split);
const genuine = classes.flatMap((cls, i) => (cls.startsWith('genuine_') ? [i] : [])).slice(0, CASES);
const pipeline = await VisionPipeline.start({ ocrWorkers: 1, now: () => NOW });
const tally = { blind: 0, guided: 0, neverReady: 0, framesToReady: [] as number[], advice: {} as Record<string, number> };
try {
  for (const index of genuine) {
    const c = await buildCase(split, index);
    const r = rng(index + 1);
    const frames: Buffer[] = [];
    for (let k = 0; k < FRAMES; k++) frames.push(await film(c.docFront, draw(r), r));
    let guided = frames.length - 1;
    let ready = false;
    for (let k = 0; k < frames.length; k++) {
      const advice = await guidanceOf(frames[k]!);
      tally.advice[advice] = (tally.advice[advice] ?? 0) + 1;
      if (advice === 'ready') {
        guided = k;
        ready = true;
        break;
      }
    }
    if (ready) tally.framesToReady.push(guided + 1);
    else tally.neverReady++;
    const verdictOf = async (docFront: Buffer) =>
      (
        await pipeline.run(
          { submittedFullName: c.typedName, documentType: c.documentType, country: c.country },
          { docFront, docBack: c.docBack, selfie: c.selfie, liveness: null },
        )
      ).verdict;
    const blind = await verdictOf(frames[0]!);
    const chosen = guided === 0 ? blind : await verdictOf(frames[guided]!);
    if (blind === 'approved') tally.blind++;
    if (chosen === 'approved') tally.guided++;
    console.log(`${c.id} ${c.cls}: blind ${blind}, guided (frame ${guided + 1}${ready ? '' : ', never ready'}) ${chosen}`);
  }
} finally {
  await pipeline.stop();
}
const n = genuine.length;
const pct = (k: number) => `${k}/${n} (${((100 * k) / n).toFixed(0)}%)`;
const median = tally.framesToReady.sort((a, b) => a - b)[Math.floor(tally.framesToReady.length / 2)] ?? 0;
console.log(`\ngenuine documents of ${split}, ${FRAMES} frames a session:`);
console.log(`  approved, photo taken blind (first frame):   ${pct(tally.blind)}`);
console.log(`  approved, photo taken at the first "ready":  ${pct(tally.guided)}`);
console.log(`  sessions never ready (shutter pressed on the last frame): ${tally.neverReady}; median frames to ready ${median}`);
console.log(`  advice over the frames read: ${JSON.stringify(tally.advice)}`);
