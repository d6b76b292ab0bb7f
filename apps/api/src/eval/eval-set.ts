import type { DocumentType, Verdict, VerdictReason } from '@service/contract';
import sharp from 'sharp';
import {
  cameraEffects,
  documentQuad,
  FAST_PNG,
  toRaw,
  photographDocument,
  type Background,
  type CaptureParams,
  type Encoded,
} from './capture.js';
import {
  ASPECT,
  DOC_FONTS,
  DOC_KINDS,
  renderDocument,
  type DateStyle,
  type DocKind,
  type DocumentData,
  type RenderedSide,
} from './documents.js';
import { otherGiven, otherSurname, randomName, TYPED_VARIANTS, typedName, type PersonName, type TypedVariant } from './names.js';
import { Rng } from './random.js';
import { drawSelfieParams, PORTRAITS, renderSelfie, type PortraitId, type SelfieParams } from './selfies.js';

/**
 * The evaluation set (issue 9): seeded, deterministic cases over the capture envelope, in two
 * splits drawn with different seeds. `dev` is for tuning; `heldout` is only for reporting.
 * Each case is a pure function of (split, index), so a subset costs only what it contains.
 */
export type Split = 'dev' | 'heldout';
/** Bump when a change alters any generated case (cached sets on disk are then rebuilt). */
export const GENERATOR_VERSION = 3;
/**
 * `heldout` was drawn with `heldout-c94b`, then `heldout-3f70` (2026-11-26, fifth round), then
 * `heldout-92d6` (sixth round, run once mid-round), then `heldout-3fab` (its report: screen photos
 * approved), `heldout-8b2d` (eighth round), `heldout-599f` (ninth round, 240 cases), `heldout-6a89`
 * (tenth round: native Tesseract), `heldout-ec15` (eleventh round: fused face models),
 * `heldout-851e` (twelfth round, run mid-round), `heldout-b170` (twelfth round's report),
 * `heldout-2985` (thirteenth round's report), `heldout-c2f0` (fourteenth round's report, drawn
 * after its code was final), `heldout-767d` (fifteenth round's report), `heldout-1e4e` (sixteenth
 * round's report), `heldout-1119` (seventeenth round's report), `heldout-aa38` (eighteenth round,
 * mid-round), `heldout-dcdf` (eighteenth round's report), `heldout-4216` (nineteenth round's
 * report, drawn after its code was final), `heldout-a218` and `heldout-4424` (twentieth round),
 * `heldout-f081` (twenty-first), `heldout-5fbc` (twenty-second), `heldout-ce1c` (twenty-third),
 * `heldout-9e57` (twenty-fourth round's report), `heldout-b41d` (twenty-fifth round's report,
 * drawn after its code was final), `heldout-8a36` (twenty-sixth round's report, drawn after
 * its code was final), `heldout-1f77` (twenty-seventh round, drawn after its code was thought
 * final, which its own tests then failed), `heldout-9641` (twenty-seventh round's report, drawn
 * after its code was final), `heldout-94ff` (twenty-eighth round's report, drawn after its
 * code was final), `heldout-fb38` (twenty-ninth round's report, drawn after its code was
 * final), `heldout-0306` (thirtieth round, drawn after its code was thought final, a name rule
 * added after it), `heldout-38e5` (thirtieth round's report, drawn after its code was final),
 * `heldout-bb98` (thirty-first round's report, drawn after its code was final), then
 * `heldout-f4cc` (thirty-second round's report, drawn after its code was final), then
 * `heldout-106d` (thirty-third round's report, drawn after its code was final), then
 * `heldout-6e77` (thirty-fourth round's report, drawn after its code was final), then
 * `heldout-58be` (thirty-fifth round's report, drawn after its code was final), then
 * `heldout-981c` (thirty-sixth round's report, drawn after its code was final), then
 * `heldout-2cb7` (thirty-sixth round, drawn after a change made on reading `981c`), then
 * `heldout-926b` (thirty-seventh round's report, drawn after its code was final), then
 * `heldout-561f` (thirty-seventh round, drawn after two changes made on reading `926b`), then
 * `heldout-efc7` (thirty-eighth round's report, drawn after its code was final), then
 * `heldout-ad0f` (thirty-eighth round, drawn after a change made on reading check set sixteenth), then
 * `heldout-5d61` (thirty-eighth round, drawn after a change made on reading `ad0f`), then
 * `heldout-f0c5` (thirty-ninth round's report, drawn after its code was final), then
 * `heldout-a809` (thirty-ninth round, drawn after two changes made on reading `f0c5`), then
 * `heldout-8d2b` (fortieth round's report, drawn after its first change was final), then
 * `heldout-6874` (fortieth round, drawn after two changes to the cost of that one), then
 * `heldout-40b8` (forty-first round, drawn after its first change was final), then
 * `heldout-3609` (forty-first round, drawn after a change made on reading `40b8`), then
 * `heldout-a7a9` (forty-first round's report, drawn after a change made on reading check set
 * nineteenth), then `heldout-e34b` (forty-second round's report, drawn after its code was final), then
 * `heldout-0adc` (forty-third round's report, drawn after its code was final), then
 * `heldout-7299` (forty-fourth round's report, drawn after its code was final); each time
 * its per-case failures had been read, so it was drawn again with a new seed for what followed
 * (docs/pipeline.md, "Splits").
 * Retired seeds are tuning data like dev (`buildCase`'s `seed`).
 */
export const SPLIT_SEEDS: Record<Split, string> = { dev: 'dev-7d1e', heldout: 'heldout-d89b' };

export type EvalClass =
  | 'genuine_passport_td3'
  | 'genuine_id_card_td1'
  | 'genuine_id_card_printed'
  | 'genuine_driving_licence'
  | 'genuine_id_card_td2'
  | 'other_face'
  | 'other_surname'
  | 'other_name'
  | 'no_face'
  | 'expired'
  | 'blurred'
  | 'too_dark'
  | 'glare'
  | 'too_small'
  | 'screen_photo';

export interface ClassSpec {
  negative: boolean;
  /** Verdicts that count as correct. */
  expected: Verdict[];
  /** The reason a correct verdict must carry (null: genuine, or no contract reason exists). */
  reason: VerdictReason | 'image_too_dark' | 'glare' | 'low_resolution' | null;
  /** Cases per split. */
  count: number;
  what: string;
}

const GENUINE = 36;
const NEGATIVE = 14;
export const CLASSES: Record<EvalClass, ClassSpec> = {
  genuine_passport_td3: { negative: false, expected: ['approved'], reason: null, count: GENUINE, what: 'passport data page (TD3 MRZ)' },
  genuine_id_card_td1: {
    negative: false,
    expected: ['approved'],
    reason: null,
    count: GENUINE,
    what: 'identity card: printed front, TD1 MRZ on the back (both uploaded)',
  },
  genuine_id_card_printed: { negative: false, expected: ['approved'], reason: null, count: GENUINE, what: 'identity card without any MRZ' },
  genuine_driving_licence: {
    negative: false,
    expected: ['approved'],
    reason: null,
    count: GENUINE,
    what: 'driving licence (EU numbered fields or North-American labels), no MRZ',
  },
  genuine_id_card_td2: {
    negative: false,
    expected: ['approved'],
    reason: null,
    count: GENUINE,
    what: 'ID-2 card with a TD2 MRZ on the front',
  },
  other_face: { negative: true, expected: ['rejected', 'review'], reason: 'face_mismatch', count: NEGATIVE, what: "someone else's selfie" },
  other_surname: {
    negative: true,
    expected: ['rejected', 'review'],
    reason: 'name_mismatch',
    count: NEGATIVE,
    what: 'the same given names with another family name typed',
  },
  other_name: {
    negative: true,
    expected: ['rejected', 'review'],
    reason: 'name_mismatch',
    count: NEGATIVE,
    what: "another person's name typed (other given names, same or other family name)",
  },
  no_face: {
    negative: true,
    expected: ['rejected', 'review'],
    reason: 'no_face_in_selfie',
    count: NEGATIVE,
    what: 'selfie without a face (camera aimed at the chest, a wall or the desk)',
  },
  expired: { negative: true, expected: ['rejected'], reason: 'document_expired', count: NEGATIVE, what: 'document expired 2019-2025' },
  blurred: {
    negative: true,
    expected: ['review', 'rejected'],
    reason: 'blurry_image',
    count: NEGATIVE,
    what: 'document out of focus or shaken (or the selfie, one in four)',
  },
  too_dark: {
    negative: true,
    expected: ['review', 'rejected'],
    reason: 'image_too_dark',
    count: NEGATIVE,
    what: 'document photographed in the dark (or the selfie, one in four)',
  },
  glare: {
    negative: true,
    expected: ['review', 'rejected'],
    reason: 'glare',
    count: NEGATIVE,
    what: 'burnt-out reflection over the printed fields',
  },
  too_small: {
    negative: true,
    expected: ['review', 'rejected'],
    reason: 'low_resolution',
    count: NEGATIVE,
    what: '320x240 selfie, well lit',
  },
  screen_photo: {
    negative: true,
    expected: ['review', 'rejected'],
    reason: null,
    count: NEGATIVE,
    // Caught for any reason: a screen photo no stage could read is caught as unreadable.
    what: 'the document shown on a monitor and photographed (document_on_screen, or any other reason)',
  },
};

export const CLASS_NAMES = Object.keys(CLASSES) as EvalClass[];

export interface EvalCaseMeta {
  id: string;
  split: Split;
  index: number;
  cls: EvalClass;
  expected: Verdict[];
  reason: ClassSpec['reason'];
  /** Init fields. */
  typedName: string;
  typedVariant: TypedVariant | 'other_surname' | 'other_name';
  documentType: DocumentType | null;
  country: string | null;
  document: {
    kind: DocKind;
    layout: number;
    font: string;
    dateStyle: DateStyle;
    greyPortrait: boolean;
    portrait: PortraitId;
    expiry: string;
    printedName: PersonName;
  };
  front: CaptureMeta;
  back: CaptureMeta | null;
  selfieCapture: { who: PortraitId | 'nobody'; width: number; height: number; light: string; quality: number; faceShare: number };
}

export interface CaptureMeta {
  width: number;
  height: number;
  fill: number;
  rotation: number;
  tilt: number;
  background: Background | 'screen';
  glare: CaptureParams['glare'];
  exposure: number;
  defocus: number;
  noise: number;
  /** Quality drawn, and used (lower when the frame would exceed the 2 MiB upload limit). */
  qualityDrawn: number;
  quality: number;
  bytes: number;
}

export interface EvalCase extends EvalCaseMeta {
  docFront: Buffer;
  docBack: Buffer | null;
  selfie: Buffer;
}

/**
 * How many times a split holds every class's count. Dev holds it twice since 2026-11-26 (640
 * cases): once its first 320 cases were all but saturated (178 of 180 genuine approved), a second
 * round, after the first and interleaved with its own order, gave new failures to learn from. The
 * first 320 cases are the same as before.
 */
export const SPLIT_ROUNDS: Record<Split, number> = { dev: 2, heldout: 1 };

/** Which class each index of a split holds: every class's count per round, each round interleaved by the split's seed. */
export function caseClasses(split: Split, seed: string = SPLIT_SEEDS[split]): EvalClass[] {
  const out: EvalClass[] = [];
  for (let round = 0; round < SPLIT_ROUNDS[split]; round++) {
    const list = CLASS_NAMES.flatMap((c) => Array.from({ length: CLASSES[c].count }, () => c));
    const rng = Rng.of(seed, round === 0 ? 'order' : `order-${round + 1}`);
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    out.push(...list);
  }
  return out;
}

/** A few cases of every class (the first `perClass` of each, in split order): the fast subset. */
export function stratifiedIndexes(split: Split, perClass: number): number[] {
  const seen = new Map<EvalClass, number>();
  const out: number[] = [];
  caseClasses(split).forEach((c, i) => {
    const n = seen.get(c) ?? 0;
    if (n < perClass) out.push(i);
    seen.set(c, n + 1);
  });
  return out;
}

const COUNTRIES: readonly [string, string, string][] = [
  ['NOR', 'NO', 'Norway'],
  ['FRA', 'FR', 'France'],
  ['ESP', 'ES', 'Spain'],
  ['NLD', 'NL', 'Netherlands'],
  ['SWE', 'SE', 'Sweden'],
  ['DNK', 'DK', 'Denmark'],
  ['POL', 'PL', 'Poland'],
  ['ITA', 'IT', 'Italy'],
  ['PRT', 'PT', 'Portugal'],
  ['IRL', 'IE', 'Ireland'],
  ['FIN', 'FI', 'Finland'],
  ['AUT', 'AT', 'Austria'],
  ['CZE', 'CZ', 'Czechia'],
  ['ISL', 'IS', 'Iceland'],
  ['TUR', 'TR', 'Türkiye'],
  ['GBR', 'GB', 'United Kingdom'],
];

const FRAMES: readonly (readonly [[number, number], number])[] = [
  [[640, 480], 2],
  [[1280, 720], 2],
  [[1280, 960], 2],
  [[1600, 1200], 2],
  [[1920, 1080], 3],
  [[2048, 1536], 2],
  [[2592, 1944], 2],
  [[3264, 2448], 2],
  [[4000, 3000], 1],
  [[4032, 3024], 2],
];

/** Print a person can read needs pixels: the document is drawn at least this wide (raising the fill). */
export const MIN_DOCUMENT_PIXELS = 560;

const isoDate = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

function documentData(rng: Rng, kind: DocKind, name: PersonName, portrait: PortraitId, expired: boolean): DocumentData {
  const us = kind === 'driving_licence' && rng.chance(0.35);
  const [nationality, country, countryName] = us ? (['USA', 'US', 'United States'] as const) : rng.pick(COUNTRIES);
  const expYear = expired ? rng.int(2019, 2025) : rng.int(2028, 2036);
  const expiry = isoDate(expYear, rng.int(1, 12), rng.int(1, 28));
  const validity = kind === 'driving_licence' ? rng.pick([5, 10, 15]) : rng.pick([5, 10]);
  const letters = 'ABCDEFGHJKLMNPRSTUVWXYZ';
  const digits = (n: number) => Array.from({ length: n }, () => rng.int(0, 9)).join('');
  const number =
    kind === 'driving_licence'
      ? us
        ? `${rng.pick([...letters])}${digits(7)}`
        : digits(rng.int(8, 11))
      : `${rng.pick([...letters])}${rng.pick([...letters])}${digits(7)}`;
  const layout = us ? 1 : kind === 'driving_licence' ? 0 : rng.int(0, 3);
  return {
    kind,
    layout,
    font: rng.pick(DOC_FONTS),
    name,
    upperCase: rng.chance(0.8),
    sex: portrait === 'varshney' ? 'M' : 'F',
    birth: isoDate(rng.int(1950, 2005), rng.int(1, 12), rng.int(1, 28)),
    issue: isoDate(expYear - validity, rng.int(1, 12), rng.int(1, 28)),
    expiry,
    number,
    nationality,
    country,
    countryName,
    dateStyle: us
      ? 'mm/dd/yyyy'
      : rng.weighted<DateStyle>([
          ['dd mm yyyy', 2],
          ['dd.mm.yyyy', 2],
          ['dd MMM yyyy', kind === 'passport_td3' ? 3 : 1],
        ]),
    portrait: '',
    greyPortrait: rng.chance(0.4),
  };
}

function drawCapture(rng: Rng, aspect: number): CaptureParams {
  let [frameW, frameH] = rng.weighted(FRAMES);
  if (rng.chance(0.25)) [frameW, frameH] = [frameH, frameW]; // phone held upright
  const p: CaptureParams = {
    frameW,
    frameH,
    fill: rng.range(0.45, 0.95),
    rotation: rng.range(-12, 12),
    tilt: rng.range(0, 15),
    tiltAxis: rng.range(0, 180),
    offset: [rng.range(-1, 1), rng.range(-1, 1)],
    background: rng.weighted<Background>([
      ['desk', 3],
      ['hand', 2],
      ['fabric', 2],
    ]),
    lightFalloff: rng.chance(0.6) ? rng.range(0.05, 0.35) : 0,
    shadow: rng.chance(0.3),
    glare: rng.chance(0.3) ? 'spot' : 'none',
    exposure: rng.range(0.85, 1.1),
    defocus: 0,
    noise: rng.range(1.5, 8),
    quality: rng.int(55, 95),
  };
  // Raise the fill until the document is drawn wide enough to read (at most 0.95 of the frame).
  for (let k = 0; k < 20 && documentQuad(aspect, p).drawWidth < MIN_DOCUMENT_PIXELS && p.fill < 0.95; k++)
    p.fill = Math.min(0.95, p.fill + 0.05);
  return p;
}

function captureMeta(p: CaptureParams, e: Encoded, background: Background | 'screen' = p.background): CaptureMeta {
  return {
    width: p.frameW,
    height: p.frameH,
    fill: round(p.fill),
    rotation: round(p.rotation),
    tilt: round(p.tilt),
    background,
    glare: p.glare,
    exposure: round(p.exposure),
    defocus: round(p.defocus * 1000),
    noise: round(p.noise),
    qualityDrawn: p.quality,
    quality: e.quality,
    bytes: e.jpeg.length,
  };
}
const round = (n: number) => Math.round(n * 100) / 100;

async function photograph(
  rng: Rng,
  data: DocumentData,
  side: 'front' | 'back',
  p: CaptureParams,
): Promise<{ jpeg: Encoded; quad: ReturnType<typeof documentQuad> }> {
  const quad = documentQuad(ASPECT[data.kind], p);
  const rendered = await renderDocument(Rng.of(rng.next(), 'render'), data, Math.min(4200, Math.max(300, quad.drawWidth)));
  const sideImg: RenderedSide = side === 'front' ? rendered.front : rendered.back!;
  return { jpeg: await photographDocument(rng, sideImg, quad.quad, p), quad };
}

/** The document shown full-screen on a monitor (a visible pixel grid) and photographed. */
async function screenPhoto(rng: Rng, data: DocumentData, p: CaptureParams): Promise<Encoded> {
  const screenW = rng.pick([1280, 1366, 1440]);
  const screenH = Math.round(screenW / 1.6);
  const docW = Math.round(screenW * rng.range(0.6, 0.8));
  const rendered = await renderDocument(Rng.of(rng.next(), 'render'), data, docW);
  const { data: content, info } = await sharp({
    create: { width: screenW, height: screenH, channels: 3, background: rng.pick(['#f4f4f4', '#202124', '#dfe6ee']) },
  })
    .composite([
      { input: rendered.front.png, left: Math.round((screenW - docW) / 2), top: Math.round((screenH - rendered.front.height) / 2) },
    ])
    .raw()
    .toBuffer({ resolveWithObject: true });
  const cc = info.channels;
  // Each screen pixel becomes 3x3 sensor-visible cells: R, G, B stripes with a dark gap below.
  const S = 3;
  const W = screenW * S;
  const H = screenH * S;
  const out = Buffer.alloc(W * H * 4);
  for (let y = 0; y < H; y++) {
    const sy = Math.floor(y / S);
    const gap = y % S === S - 1 ? 0.55 : 1;
    for (let x = 0; x < W; x++) {
      const sx = Math.floor(x / S);
      const ch = x % S;
      const v = content[(sy * screenW + sx) * cc + ch]! * gap;
      const o = (y * W + x) * 4;
      out[o + ch] = v;
      out[o + ((ch + 1) % 3)] = v * 0.25;
      out[o + ((ch + 2) % 3)] = v * 0.25;
      out[o + 3] = 255;
    }
  }
  // Bezel around the panel; the "document" photographed is the whole monitor face.
  const bezel = Math.round(W * 0.03);
  const panel = await sharp(out, { raw: { width: W, height: H, channels: 4 } })
    .linear(1.6, 10) // the emissive panel is bright; compensate the stripe mask's loss
    .extend({ top: bezel, bottom: bezel * 2, left: bezel, right: bezel, background: '#111' })
    .png(FAST_PNG)
    .toBuffer();
  const pw = W + 2 * bezel;
  const ph = H + 3 * bezel;
  const quad = documentQuad(pw / ph, { ...p, fill: rng.range(0.75, 0.95) });
  const face = { png: panel, width: pw, height: ph, fields: { x: 0.2, y: 0.2, w: 0.6, h: 0.6 } };
  return photographDocument(rng, face, quad.quad, { ...p, glare: 'spot', shadow: false });
}

const KIND_OF: Partial<Record<EvalClass, DocKind>> = {
  genuine_passport_td3: 'passport_td3',
  genuine_id_card_td1: 'id_card_td1',
  genuine_id_card_printed: 'id_card_printed',
  genuine_driving_licence: 'driving_licence',
  genuine_id_card_td2: 'id_card_td2',
};

function initDocumentType(rng: Rng, kind: DocKind, country: string): DocumentType | null {
  if (!rng.chance(0.7)) return null;
  switch (kind) {
    case 'passport_td3':
      return 'passport';
    case 'driving_licence':
      return 'drivers_license';
    case 'id_card_td2':
      return rng.chance(0.5) ? 'national_id' : 'other';
    default:
      return country === 'ES' ? 'dni' : 'national_id';
  }
}

/** Builds case `index` of `split` (drawn with the split's seed, or another: a retired held-out seed's case in a test). */
export async function buildCase(split: Split, index: number, seed: string = SPLIT_SEEDS[split]): Promise<EvalCase> {
  const cls = caseClasses(split, seed)[index];
  if (!cls) throw new Error(`no case ${index} in ${split}`);
  const spec = CLASSES[cls];
  const rng = Rng.of(seed, 'case', index);
  const kind = KIND_OF[cls] ?? rng.pick(DOC_KINDS);
  const portrait: PortraitId = rng.chance(0.5) ? 'collins' : 'hopper';
  const name = randomName(rng);
  const data = documentData(rng, kind, name, portrait, cls === 'expired');
  data.portrait = PORTRAITS[portrait].file;

  // What the user types.
  let typedVariant: EvalCaseMeta['typedVariant'] = rng.weighted(TYPED_VARIANTS);
  let typed = typedName(rng, name, typedVariant);
  if (cls === 'other_surname') {
    typedVariant = 'other_surname';
    typed = `${name.given.join(' ')} ${otherSurname(rng, name.surname)}`;
  } else if (cls === 'other_name') {
    typedVariant = 'other_name';
    typed = `${otherGiven(rng, name.given).join(' ')} ${rng.chance(0.4) ? name.surname : otherSurname(rng, name.surname)}`;
  }

  // The document photograph(s).
  const frontP = drawCapture(rng, ASPECT[kind]);
  if (cls === 'blurred' || cls === 'too_dark') frontP.glare = 'none';
  const selfieOnly = (cls === 'blurred' || cls === 'too_dark') && rng.chance(0.25);
  if (cls === 'blurred' && !selfieOnly) frontP.defocus = rng.range(0.004, 0.009);
  if (cls === 'too_dark' && !selfieOnly) {
    frontP.exposure = rng.range(0.1, 0.2);
    frontP.noise = rng.range(6, 12);
  }
  if (cls === 'glare') frontP.glare = 'over_fields';
  let front: Encoded;
  let frontBackground: Background | 'screen' = frontP.background;
  if (cls === 'screen_photo') {
    front = await screenPhoto(rng, data, frontP);
    frontBackground = 'screen';
  } else {
    front = (await photograph(rng, data, 'front', frontP)).jpeg;
  }
  let back: Encoded | null = null;
  let backP: CaptureParams | null = null;
  if (kind === 'id_card_td1' && cls !== 'screen_photo') {
    backP = drawCapture(rng, ASPECT[kind]);
    if (cls === 'blurred' && !selfieOnly) backP.defocus = frontP.defocus;
    if (cls === 'too_dark' && !selfieOnly) backP.exposure = frontP.exposure;
    back = (await photograph(rng, data, 'back', backP)).jpeg;
  }

  // The selfie.
  const sp: SelfieParams = drawSelfieParams(rng, cls === 'too_small' ? (rng.chance(0.5) ? [320, 240] : [240, 320]) : undefined);
  if (cls === 'too_small') {
    sp.light = 'good';
    sp.exposure = rng.range(0.95, 1.08);
    sp.lightFalloff = 0;
    sp.noise = rng.range(2, 4);
    sp.quality = rng.int(80, 95);
  }
  if (cls === 'blurred' && selfieOnly) sp.defocus = rng.range(0.008, 0.014);
  if (cls === 'too_dark' && selfieOnly) {
    sp.exposure = rng.range(0.1, 0.18);
    sp.noise = rng.range(8, 14);
  }
  let who: PortraitId | 'nobody' = portrait;
  if (cls === 'other_face') who = rng.chance(0.8) ? (portrait === 'collins' ? 'hopper' : 'collins') : 'varshney';
  let selfie: Encoded;
  if (cls === 'no_face') {
    if (rng.chance(0.5)) {
      sp.missFace = true;
      selfie = await renderSelfie(rng, portrait, sp);
    } else {
      who = 'nobody';
      const bg = sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${sp.width}" height="${sp.height}"><defs><linearGradient id="w" x1="0" y1="0" x2="${rng.range(0, 1).toFixed(2)}" y2="1"><stop offset="0" stop-color="hsl(${rng.int(0, 359)},12%,${rng.int(55, 85)}%)"/><stop offset="1" stop-color="hsl(${rng.int(0, 359)},18%,${rng.int(20, 50)}%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#w)"/><rect x="${rng.range(0.1, 0.6) * sp.width}" y="${rng.range(0.1, 0.5) * sp.height}" width="${rng.range(0.15, 0.35) * sp.width}" height="${rng.range(0.2, 0.5) * sp.height}" fill="hsl(${rng.int(0, 359)},25%,${rng.int(25, 75)}%)"/></svg>`,
        ),
      ).removeAlpha();
      selfie = await cameraEffects(rng, await toRaw(bg), { ...sp, shadow: false }, null);
    }
  } else {
    selfie = await renderSelfie(rng, who as PortraitId, sp);
  }

  return {
    id: `${split}-${String(index).padStart(3, '0')}-${cls}`,
    split,
    index,
    cls,
    expected: spec.expected,
    reason: spec.reason,
    typedName: typed,
    typedVariant,
    documentType: initDocumentType(rng, kind, data.country),
    country: rng.chance(data.country === 'US' ? 0.85 : 0.6) ? data.country : null,
    document: {
      kind,
      layout: data.layout,
      font: data.font,
      dateStyle: data.dateStyle,
      greyPortrait: data.greyPortrait,
      portrait,
      expiry: data.expiry,
      printedName: name,
    },
    front: captureMeta(frontP, front, frontBackground),
    back: backP && back ? captureMeta(backP, back) : null,
    selfieCapture: { who, width: sp.width, height: sp.height, light: sp.light, quality: selfie.quality, faceShare: round(sp.faceShare) },
    docFront: front.jpeg,
    docBack: back?.jpeg ?? null,
    selfie: selfie.jpeg,
  };
}

/** The cases of a split (all, or the given indexes), built a few at a time. */
export async function buildSplit(split: Split, indexes?: number[], onCase?: (c: EvalCase) => void): Promise<EvalCase[]> {
  const idx = indexes ?? caseClasses(split).map((_, i) => i);
  const out: EvalCase[] = [];
  for (const i of idx) {
    const c = await buildCase(split, i);
    onCase?.(c);
    out.push(c);
  }
  return out;
}
