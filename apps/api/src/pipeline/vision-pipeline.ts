import type { FieldsExtracted, Scores } from '@service/contract';
import type { Verification } from '../db/types.js';
import { FaceAnalyzer, type FaceResult } from './faces.js';
import { DEFAULT_QUALITY_THRESHOLDS, measureQuality, qualityScore } from './image-quality.js';
import { findMrzLines, parseMrz, type MrzFields } from './mrz.js';
import { judgeLiveness } from './liveness.js';
import { nameInTextScore, nameMatchScore } from './name-match.js';
import { OcrEngine } from './ocr.js';
import { type VerificationImages, type VerificationOutcome, type VerificationPipeline } from './pipeline.js';
import { decide, POLICY } from './policy.js';

/** CPU milliseconds per stage of one run, for the pipeline benchmark. */
export type StageTimes = Record<'quality' | 'ocr' | 'mrz' | 'faces' | 'liveness', number>;

/**
 * The vision pipeline: image quality, OCR of the document (and the MRZ with the OCR-B model, which
 * wins over free text when its check digits hold), the name match, faces on document and selfie
 * and their match, expiry, then the policy. Models are loaded once per process (`start`).
 */
export class VisionPipeline implements VerificationPipeline {
  lastStageTimes: StageTimes | null = null;

  private constructor(
    private readonly ocr: OcrEngine,
    private readonly faces: FaceAnalyzer,
    private readonly now: () => Date,
  ) {}

  static async start(opts: { ocrWorkers?: number; now?: () => Date } = {}): Promise<VisionPipeline> {
    const [ocr, faces] = await Promise.all([OcrEngine.start({ textWorkers: opts.ocrWorkers, mrzWorkers: 1 }), FaceAnalyzer.start()]);
    return new VisionPipeline(ocr, faces, opts.now ?? (() => new Date()));
  }

  async stop(): Promise<void> {
    await this.ocr.stop();
  }

  async run(v: Verification, images: VerificationImages): Promise<VerificationOutcome> {
    const times: StageTimes = { quality: 0, ocr: 0, mrz: 0, faces: 0, liveness: 0 };
    const timed = async <T>(stage: keyof StageTimes, work: () => Promise<T>): Promise<T> => {
      const start = performance.now();
      try {
        return await work();
      } finally {
        times[stage] += performance.now() - start;
      }
    };

    let docQ;
    let selfieQ;
    try {
      [docQ, selfieQ] = await timed('quality', () => Promise.all([measureQuality(images.docFront), measureQuality(images.selfie)]));
    } catch {
      // Bytes that start like a JPEG but do not decode: nothing to read, nobody to match.
      return unreadable();
    }
    const docScore = qualityScore(docQ, DEFAULT_QUALITY_THRESHOLDS);
    const selfieScore = qualityScore(selfieQ, DEFAULT_QUALITY_THRESHOLDS);

    // The MRZ first: when its check digits hold it wins over free text, and the free-text OCR (the
    // costliest stage) is skipped. Faces run meanwhile.
    const facesDone = Promise.all([timed('faces', () => this.faces.analyse(images.docFront, 1024)), timed('faces', () => this.faces.analyse(images.selfie, 512))]);
    // Liveness runs on the main thread while the OCR works on its worker threads.
    const live = images.liveness;
    const livenessDone = live
      ? facesDone.then(([, selfie]) => timed('liveness', () => judgeLiveness(this.faces, { anchor: live.anchor, selfieFace: selfie, steps: live.steps })))
      : Promise.resolve(null);
    livenessDone.catch(() => {});
    let mrz: MrzFields | null = null;
    for (const side of mrzSides(v.document_type, images)) {
      const zone = await timed('mrz', () => this.ocr.readMrzRegion(side));
      const lines = findMrzLines(zone);
      mrz = lines ? parseMrz(lines, this.now()) : null;
      if (mrz) break;
    }
    const text = mrz ? { text: '', confidence: 1 } : await timed('ocr', () => this.ocr.readText(images.docFront));
    const [docFace, selfieFace] = await facesDone;

    const fields: FieldsExtracted = mrz
      ? { fullName: mrz.fullName, documentNumber: mrz.documentNumber, dateOfBirth: mrz.dateOfBirth, expiryDate: mrz.expiryDate, nationality: mrz.nationality }
      : fieldsFromText(text.text, this.now(), v.country);
    const typed = v.submitted_full_name;
    const nameMatch = typed ? (fields.fullName ? nameMatchScore(typed, fields.fullName) : nameInTextScore(typed, text.text)) : null;
    // Without an MRZ: half OCR confidence, half the five fields found (the typed name counts as
    // found when it was read in the text).
    const nameFound = !fields.fullName && nameMatch !== null && nameMatch >= POLICY.nameMatch.review;
    const fieldsFound = Object.values(fields).filter(Boolean).length + (nameFound ? 1 : 0);
    let documentOcr = mrz ? 1 : Math.min(1, 0.5 * text.confidence + 0.5 * (fieldsFound / 5));
    if (!docFace) documentOcr = Math.max(0, documentOcr - POLICY.noDocumentFacePenalty);
    const documentReadable = Boolean(mrz) || (text.text.replace(/\s/g, '').length >= 20 && fieldsFound >= 1);

    const faceMatch = docFace && selfieFace ? round(this.faces.similarity(docFace.embedding, selfieFace.embedding)) : null;
    const expired = fields.expiryDate !== null && fields.expiryDate < this.now().toISOString().slice(0, 10);
    const imageQuality = Math.min(docScore.score, selfieScore.score);
    const liveness = (await livenessDone)?.score ?? null;

    const { verdict, reasons } = decide({
      documentOcr,
      nameMatch,
      faceMatch,
      imageQuality,
      selfieHasFace: selfieFace !== null,
      documentReadable,
      documentExpired: expired,
      blurry: docScore.blurry || selfieScore.blurry,
      liveness,
    });
    this.lastStageTimes = times;
    const scores: Scores = { document_ocr: round(documentOcr), name_match: nameMatch, face_match: faceMatch, image_quality: round(imageQuality), liveness };
    return { verdict, reasons, scores, fieldsExtracted: fields };
  }
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Bytes that start like a JPEG but do not decode: nothing to read and nobody to match. */
function unreadable(): VerificationOutcome {
  return {
    verdict: 'rejected',
    reasons: ['document_unreadable'],
    scores: { document_ocr: 0, name_match: null, face_match: null, image_quality: 0, liveness: null },
    fieldsExtracted: { fullName: null, documentNumber: null, dateOfBirth: null, expiryDate: null, nationality: null },
  };
}

/**
 * Where to look for the MRZ, steered by the init field `documentType`: a passport's (TD3) is on
 * the data page, the front; an identity card's or driving licence's (TD1) is usually on the back,
 * so the back is read first when there is one.
 */
export function mrzSides(documentType: string | null, images: Pick<VerificationImages, 'docFront' | 'docBack'>): Buffer[] {
  if (!images.docBack) return [images.docFront];
  if (documentType === 'passport') return [images.docFront];
  if (documentType === 'national_id' || documentType === 'dni' || documentType === 'drivers_license') return [images.docBack, images.docFront];
  return [images.docFront, images.docBack];
}

/** True for a real calendar date in YYYY-MM-DD (rejects 2031-02-30 and 13th months). */
function isCalendarDate(d: string): boolean {
  const t = Date.parse(`${d}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d;
}

/** Countries that write dates month first (steered by the init field `country`). */
const MONTH_FIRST = new Set(['US', 'PH', 'FM', 'PW', 'MH']);

/**
 * Without an MRZ: a document number and dates from free text (DD MM YYYY, DD.MM.YYYY,
 * YYYY-MM-DD; MM DD YYYY where `country` writes dates month first).
 */
export function fieldsFromText(text: string, now: Date, country: string | null = null): FieldsExtracted {
  const monthFirst = country !== null && MONTH_FIRST.has(country);
  const dates = [...text.matchAll(/\b(\d{2})[ ./-](\d{2})[ ./-](\d{4})\b|\b(\d{4})-(\d{2})-(\d{2})\b/g)]
    .map((m) => (m[4] ? `${m[4]}-${m[5]}-${m[6]}` : monthFirst ? `${m[3]}-${m[1]}-${m[2]}` : `${m[3]}-${m[2]}-${m[1]}`))
    .filter(isCalendarDate)
    .sort();
  const today = now.toISOString().slice(0, 10);
  const number = /\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{7,12}\b/.exec(text.toUpperCase())?.[0] ?? null;
  return {
    fullName: null,
    documentNumber: number,
    dateOfBirth: dates.find((d) => d < today) ?? null,
    expiryDate: dates.length >= 2 ? dates[dates.length - 1]! : null,
    nationality: null,
  };
}

export type { FaceResult };

/**
 * The vision pipeline for a worker process: models start loading at once in the background (the
 * API does not wait for them), and the first job waits until they are ready.
 */
export function backgroundVisionPipeline(onError: (err: Error) => void): VerificationPipeline & { stop(): Promise<void> } {
  const ready = VisionPipeline.start();
  ready.catch(onError);
  return {
    async run(v, images) {
      return (await ready).run(v, images);
    },
    async stop() {
      await ready.then((p) => p.stop()).catch(() => {});
    },
  };
}
