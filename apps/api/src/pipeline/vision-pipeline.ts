import { decodeImage, ImageDecodeError, prepareGreyTable, type DecodedImage } from './decode/decode.js';
import {
  NO_FIELDS,
  type PipelineRequest,
  type RunHints,
  type VerificationImages,
  type VerificationOutcome,
  type VerificationPipeline,
} from './pipeline.js';
import { FaceThread } from './read/faces/face-thread.js';
import { comparedEmbeddings } from './read/faces/descriptor/compare.js';
import { OcrEngine } from './read/ocr/ocr.js';
import { readDocumentPhoto } from './read/read-document-photo.js';
import { readSelfie } from './read/read-selfie.js';
import { POLICY } from './decide/policy.js';
import { claimNameScore } from './score/claim-name.js';
import { judge } from './score/judge.js';

/** CPU milliseconds per stage of one run, for the pipeline benchmark. */
export type StageTimes = Record<'decode' | 'quality' | 'ocr' | 'mrz' | 'faces' | 'liveness', number>;

/**
 * The vision pipeline, stage by stage: decode every image once; read the document's photo (its
 * quality, its portrait, its fields by the reading strategy: zone, then printed pages, fused by
 * evidence) and, beside it, the selfie (its face, quality and liveness frames); compare the two
 * faces; then score what was read against the user's claim and let the policy decide. Models load
 * once per process (`start`); each stage is its own module, tested on its own.
 */
export class VisionPipeline implements VerificationPipeline {
  private constructor(
    private readonly ocr: OcrEngine,
    private readonly faces: FaceThread,
    private readonly now: () => Date,
  ) {}

  static async start(opts: { ocrWorkers?: number; now?: () => Date } = {}): Promise<VisionPipeline> {
    const [ocr, faces] = await Promise.all([
      OcrEngine.start({ textWorkers: opts.ocrWorkers, mrzWorkers: 1 }),
      FaceThread.start(),
      prepareGreyTable(),
    ]);
    return new VisionPipeline(ocr, faces, opts.now ?? (() => new Date()));
  }

  async stop(): Promise<void> {
    await Promise.all([this.ocr.stop(), this.faces.stop()]);
  }

  /** Which Tesseract build reads, and the processes it reads in (native): for the benchmark. */
  get ocrEngine(): { kind: 'native' | 'wasm'; pids: number[] } {
    return { kind: this.ocr.kind, pids: this.ocr.enginePids() };
  }

  async run(v: PipelineRequest, images: VerificationImages, hints: RunHints = {}): Promise<VerificationOutcome> {
    const times: StageTimes = { decode: 0, quality: 0, ocr: 0, mrz: 0, faces: 0, liveness: 0 };
    const timed = async <T>(stage: keyof StageTimes, work: () => Promise<T>): Promise<T> => {
      const start = performance.now();
      try {
        return await work();
      } finally {
        times[stage] += performance.now() - start;
      }
    };
    const now = this.now();

    const [front, back, selfie] = await timed('decode', () =>
      Promise.all([decoded(images.docFront), images.docBack ? decoded(images.docBack) : null, decoded(images.selfie, SELFIE_SIDE)]),
    );
    if (!front || !selfie) return unusable(!front, !selfie, times);

    // The document's portrait is asked of the face thread first: its printed text waits for it.
    const documentRead = readDocumentPhoto(
      this.ocr,
      this.faces,
      {
        front,
        back,
        frontBytes: images.docFront,
        documentType: v.documentType,
        country: v.country,
        now,
        readAhead: hints.alone === true,
        claimAgrees: (e) => !v.submittedFullName || claimNameScore(v.submittedFullName, e) >= POLICY.nameMatch.review,
      },
      timed,
    );
    const selfieRead = readSelfie(this.faces, selfie, images.liveness, timed);
    const [document, selfieFace] = await Promise.all([documentRead, selfieRead]);

    // A meshless selfie face has no descriptor: no match, so review (policy.ts).
    const compared = document.portrait && selfieFace.face ? comparedEmbeddings(document.portrait, selfieFace.face) : null;
    const faceMatch = compared ? await this.faces.similarity(...compared) : null;
    const verdict = judge({
      document,
      selfie: selfieFace,
      faceMatch,
      claim: v.submittedFullName,
      documentType: v.documentType,
      today: now.toISOString().slice(0, 10),
    });
    return { ...verdict, stageTimes: times };
  }
}

/** A selfie needs no more: quality is measured at up to 1024 px and faces at 512. */
const SELFIE_SIDE = 1024;

/** An image decoded, or null where it does not decode (corrupt, over the pixel limit, no photo's shape): a verdict, never an exception. */
const decoded = (bytes: Buffer, maxSide?: number): Promise<DecodedImage | null> =>
  decodeImage(bytes, maxSide).catch((err: unknown) => (err instanceof ImageDecodeError ? null : Promise.reject(err)));

/** An image that does not decode: nothing to read or match. */
function unusable(document: boolean, selfie: boolean, stageTimes: StageTimes): VerificationOutcome {
  const reasons = [...(document ? ['document_unreadable'] : []), ...(selfie ? ['no_face_in_selfie'] : [])];
  return {
    verdict: 'rejected',
    reasons,
    scores: { document_ocr: 0, name_match: null, face_match: null, image_quality: 0, liveness: null },
    fieldsExtracted: NO_FIELDS,
    stageTimes,
  };
}
