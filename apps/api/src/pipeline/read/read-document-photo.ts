import type { DocumentType } from '@service/contract';
import { cropDecoded, type DecodedImage } from '../decode/decode.js';
import type { DocumentEvidence } from '../evidence/fuse.js';
import { turned, turnsToTry, uprightAndSure, type Turn } from '../locate/document-turn.js';
import { LocatedSide, regionOf } from '../locate/located-side.js';
import { readDocument } from '../strategy/read-document.js';
import type { FaceModels } from './faces/face-models.js';
import type { FaceResult } from './faces/faces.js';
import type { OcrEngine } from './ocr/ocr.js';
import { burntOutShare, PORTRAIT_GLARE_SHARE, portraitAround, portraitCore } from './quality/burn-out.js';
import { judgeQuality, measureQuality, type QualityProblem } from './quality/image-quality.js';
import { screenPattern, showsScreen } from './quality/screen-capture.js';

/** Everything read from the document's photos: the fields' evidence, its portrait, and what its photo is worth. */
export interface DocumentPhotoRead {
  evidence: DocumentEvidence;
  zoneSeen: boolean;
  portrait: FaceResult | null;
  quality: { score: number; problems: QualityProblem[] };
  /** The document was photographed off a screen. */
  onScreen: boolean;
  /** A reflection burns out the portrait's face: little left to compare it with. */
  portraitUnderGlare: boolean;
}

export interface DocumentPhoto {
  front: DecodedImage;
  back: DecodedImage | null;
  /** The front's bytes as uploaded (the screen pattern is judged at the resolution taken). */
  frontBytes: Buffer;
  documentType: DocumentType | null;
  country: string | null;
  now: Date;
  readAhead: boolean;
}

type Timed = <T>(stage: 'quality' | 'faces' | 'ocr' | 'mrz', work: () => Promise<T>) => Promise<T>;

/**
 * The document's photo read: its quality first (a blurred photo's portrait is not searched tile by
 * tile, the dearest search there is), its portrait, its fields (the reading strategy), and whether
 * it was shown on a screen. A photo that reads as nothing though it is fine may lie turned: it is
 * read again turned as its portrait points (`turnsToTry`), and the turn with most fields kept.
 */
export async function readDocumentPhoto(ocr: OcrEngine, faces: FaceModels, p: DocumentPhoto, timed: Timed): Promise<DocumentPhotoRead> {
  const measured = timed('quality', () => measureQuality(p.front, 'document'));
  const problems = measured.then(
    (q) => judgeQuality(q, 'document').problems,
    () => [] as QualityProblem[],
  );
  const photoUsable = problems.then((ps) => ps.length === 0);
  const portrait = timed('faces', () => faces.analyseDocument(p.front, { searchTiles: problems.then((ps) => !ps.includes('blurry_image')) }));
  const read = (turn: Turn, front: DecodedImage, back: DecodedImage | null, face: Promise<FaceResult | null>) =>
    readDocument({
      ocr,
      front: new LocatedSide('front', front, turn, p.front, face),
      back: back && new LocatedSide('back', back, turn, back, Promise.resolve(null)),
      documentType: p.documentType,
      country: p.country,
      now: p.now,
      readAhead: p.readAhead,
      photoUsable,
      timed: { zone: (w) => timed('mrz', w), ocr: (w) => timed('ocr', w) },
    });
  const onScreen = portrait.then(async (face) => {
    if (!face) return false;
    return showsScreen(await timed('quality', () => screenPattern(p.frontBytes, p.front, regionOf(face.box)).catch(() => null)));
  });
  const [upright, face, screen, quality] = await Promise.all([
    read(0, p.front, p.back, portrait),
    portrait,
    onScreen,
    measured.then((q) => judgeDocumentQuality(p.front, q, portrait)),
  ]);
  let best = upright;
  if (worthTurning(upright, quality.problems.length === 0 && !screen)) {
    for (const { turn, checkFirst } of turnsToTry(face)) {
      const turnedFront = await turned(p.front, turn);
      const turnedFace = timed('faces', () => faces.analyse(turnedFront, QUICK_LOOK_SIDE, { embedding: false }));
      if (checkFirst && !uprightAndSure(await turnedFace)) continue;
      const judged = await read(turn, turnedFront, p.back && (await turned(p.back, turn)), turnedFace);
      if (fieldsRead(judged.evidence) > fieldsRead(best.evidence)) best = judged;
      if (!worthTurning(judged, true)) break;
    }
  }
  const portraitUnderGlare = face !== null && burntOutShare(cropDecoded(p.front, portraitCore(face.box)).pixels) >= PORTRAIT_GLARE_SHARE;
  return { ...best, portrait: face, quality, onScreen: screen, portraitUnderGlare };
}

/** A document read as nothing (no zone seen, hardly a field) though its photo is fine: it may lie turned. */
function worthTurning(r: { evidence: DocumentEvidence; zoneSeen: boolean }, photoFine: boolean): boolean {
  return photoFine && !r.zoneSeen && r.evidence.zone === null && fieldsRead(r.evidence) < 2;
}

const fieldsRead = (e: DocumentEvidence) => Object.values(e.fields).filter((f) => f.value !== null).length;

/**
 * A document's quality; a reflection found is looked for again with the portrait left out of the
 * print around it (a pale card's paper burns out beside its portrait's light background).
 */
async function judgeDocumentQuality(front: DecodedImage, measured: Awaited<ReturnType<typeof measureQuality>>, portrait: Promise<FaceResult | null>) {
  const judged = judgeQuality(measured, 'document');
  const face = await portrait;
  if (!face || !judged.problems.includes('glare')) return judged;
  return judgeQuality(await measureQuality(front, 'document', portraitAround(face.box)), 'document');
}

/** A quick look for a face upright on a document turned a quarter: the whole picture at this side (px). */
const QUICK_LOOK_SIDE = 512;
