import type { FieldsExtracted, Scores } from '@service/contract';
import {
  cropDecoded,
  decodeImage,
  ImageDecodeError,
  prepareGreyTable,
  regionWithin,
  straighten,
  type DecodedImage,
  type GreyPage,
  type Region,
} from './decode/decode.js';
import { burntOutShare, PORTRAIT_GLARE_SHARE, portraitAround, portraitCore } from './read/quality/burn-out.js';
import { squareUp } from './locate/document-quad.js';
import { documentRegion } from './locate/find-document.js';
import { regionAsTaken, turned, turnsToTry, uprightAndSure, type Turn } from './locate/document-turn.js';
import { FaceThread } from './read/faces/face-thread.js';
import type { FaceResult } from './read/faces/faces.js';
import { judgeQuality, measureQuality, type ImageQuality, type QualityProblem } from './read/quality/image-quality.js';
import { findMrzCandidates, parseMrz, showsZoneFillers, showsZoneLine, stackedReadings, type MrzFields } from './read/zone/mrz.js';
import { judgeLiveness } from './read/liveness/liveness.js';
import {
  mrzMisreadOf,
  printedNameOfUnsureZone,
  typedSurnameInText,
  normalizeName,
  type DocumentName,
  nameInTextScore,
  nameMatchScore,
  repairOcrReading,
  sameAsZoneName,
  sameAsZoneSurname,
  sameSurnameRead,
  typedGivenNamesInText,
  nameFloorInText,
  zoneNameInText,
  zoneSurnameNearTyped,
} from './score/name-match.js';
import { levelledTextPage, OcrEngine, textPage, type TextReading } from './read/ocr/ocr.js';
import {
  NO_FIELDS,
  type PipelineRequest,
  type RunHints,
  type VerificationImages,
  type VerificationOutcome,
  type VerificationPipeline,
} from './pipeline.js';
import { decide, documentOcrScore, POLICY, selfieFaceInDoubt } from './decide/policy.js';
import { printedFields } from './read/printed/printed-fields.js';
import { screenPattern, showsScreen } from './read/quality/screen-capture.js';
import { estimateSkew, findMrzBand } from './locate/skew.js';
import { fieldsFromText, readTextFields, type DateRead, type TextFieldsReading } from './read/printed/text-fields.js';

/** CPU milliseconds per stage of one run, for the pipeline benchmark. */
export type StageTimes = Record<'decode' | 'quality' | 'ocr' | 'mrz' | 'faces' | 'liveness', number>;

/**
 * The vision pipeline: every image decoded once (decode.ts), image quality per kind, the MRZ read
 * with the OCR-B model on the straightened document (it wins over free text when its check digits
 * hold), free text otherwise, the name match on surname and given names apart, faces on document
 * and selfie and their match, expiry, then the policy. Models are loaded once per process (`start`).
 */
export class VisionPipeline implements VerificationPipeline {
  private constructor(
    private readonly ocr: OcrEngine,
    private readonly faces: FaceThread,
    private readonly now: () => Date,
  ) {}

  /** Per decoded image (so per run): its skew and its levelled picture, computed once for the MRZ and text stages. */
  private readonly skews = new WeakMap<DecodedImage, Promise<number>>();
  private readonly levels = new WeakMap<DecodedImage, Promise<DecodedImage>>();

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

    // Decode once; every stage below shares these pixels. An image that does not decode is a
    // verdict with its reason, never an exception out of the run.
    const decodeOrNull = (bytes: Buffer, maxSide?: number) =>
      decodeImage(bytes, maxSide).catch((err: unknown) => (err instanceof ImageDecodeError ? null : Promise.reject(err)));
    const [front, back, selfie] = await timed('decode', () =>
      Promise.all([
        decodeOrNull(images.docFront),
        images.docBack ? decodeOrNull(images.docBack) : Promise.resolve(null),
        decodeOrNull(images.selfie, SELFIE_SIDE),
      ]),
    );
    if (!front || !selfie) return unusable(!front, !selfie, times);

    // The selfie is judged once, whichever way up the document is read (below): each analysis is
    // made on its first request, at the same point of the run as ever, so the face thread takes
    // the document's portrait first (the printed text waits for it, never for the selfie).
    const once = <T>(work: () => Promise<T>) => {
      let done: Promise<T> | null = null;
      return () => (done ??= work());
    };
    const selfieFace = once(() => timed('faces', () => this.faces.analyseSelfie(selfie)));
    const selfieWork: SelfieWork = {
      face: selfieFace,
      quality: once(() => timed('quality', () => measureQuality(selfie, 'selfie'))),
      liveness: once(async () => {
        const live = images.liveness;
        if (!live) return null;
        const face = await selfieFace();
        return (await timed('liveness', () => judgeLiveness(this.faces, { anchor: live.anchor, selfieFace: face, steps: live.steps })))
          .score;
      }),
    };

    const clock = { times, timed };
    const upright = await this.judge(v, images, { front, back, turn: 0, asTaken: front }, selfieWork, clock, hints);
    if (!upright.worthTurning) return upright.outcome;
    // A document photographed on its side or upside down (a card laid the wrong way on the desk,
    // a phone held sideways without an orientation tag) reads as nothing: it is read again turned
    // (`turnsToTry`: as the portrait found on it points), and the turn read best is kept.
    let best = upright;
    for (const { turn, checkFirst } of turnsToTry(upright.documentFace)) {
      const turnedFront = await turned(front, turn);
      if (checkFirst && !uprightAndSure(await timed('faces', () => this.faces.analyse(turnedFront, QUICK_LOOK_SIDE, { embedding: false }))))
        continue;
      const doc = { front: turnedFront, back: back && (await turned(back, turn)), turn, asTaken: front };
      const judged = await this.judge(v, images, doc, selfieWork, clock, hints);
      if (judged.documentOcr > best.documentOcr) best = judged;
      if (!judged.worthTurning) break;
    }
    return best.outcome;
  }

  /**
   * The verdict on the document `doc.front` (and `doc.back`), turned by `doc.turn` degrees
   * clockwise from `doc.asTaken`, against the selfie's shared work. `worthTurning`: the document
   * read as nothing (no zone, the fields unread, the typed name not borne out) though its photo is
   * fine, so it may lie the wrong way up.
   */
  private async judge(
    v: PipelineRequest,
    images: VerificationImages,
    doc: { front: DecodedImage; back: DecodedImage | null; turn: Turn; asTaken: DecodedImage },
    selfieWork: SelfieWork,
    clock: { times: StageTimes; timed: <T>(stage: keyof StageTimes, work: () => Promise<T>) => Promise<T> },
    hints: RunHints,
  ): Promise<{ outcome: VerificationOutcome; documentOcr: number; worthTurning: boolean; documentFace: FaceResult | null }> {
    const { front, back } = doc;
    const { times, timed } = clock;
    const today = this.now().toISOString().slice(0, 10);
    // The document's quality first (about 0.1 s): a document too blurred to use is not searched
    // tile by tile for its portrait (faces.ts), the dearest search there is. Its verdict goes to
    // review for the blur whatever the portrait, and its search took 2 s of a core.
    const docMeasured = timed('quality', () => measureQuality(front, 'document'));
    const searchTiles = docMeasured.then(
      (q) => !judgeQuality(q, 'document').problems.includes('blurry_image'),
      () => true,
    );
    // A document whose photo is itself the problem (blurred, dark, under glare, too small) goes to
    // review for it whatever it reads: not squared up and read again for a better reading.
    const photoUsable = docMeasured.then(
      (q) => judgeQuality(q, 'document').problems.length === 0,
      () => true,
    );
    // Faces (and liveness after them) run while the MRZ and text stages work on their threads.
    // Both branches are awaited together, so a failure in either is handled, never left floating.
    const docFaceFound = timed('faces', () => this.faces.analyseDocument(front, { searchTiles }));
    const selfieFaceFound = selfieWork.face();
    const facesAndLiveness = async () => {
      const [docFace, selfieFace] = await Promise.all([docFaceFound, selfieFaceFound]);
      return { docFace, selfieFace, liveness: await selfieWork.liveness() };
    };
    // A document shown on a screen and photographed: judged in its portrait at the resolution
    // taken (screen-capture.ts), beside the other stages. Pixels that decoded once decode again;
    // should the second decode fail all the same, nothing is judged rather than the run lost.
    const onScreen = async () => {
      const face = await docFaceFound;
      if (!face) return false;
      // On the photo as taken: the bytes are decoded again at the resolution taken.
      const portrait = regionAsTaken(regionOf(face.box), doc.turn);
      return showsScreen(await timed('quality', () => screenPattern(images.docFront, doc.asTaken, portrait).catch(() => null)));
    };
    // How well a printed reading bears out the typed name (1 when none was typed), and whether it shows an expiry date.
    const nameIn = (r: TextReading) =>
      v.submittedFullName ? this.nameMatch(v.submittedFullName, null, printedNameIn(v.submittedFullName, r), r) : 1;
    const expiryOf = (r: TextReading) => fieldsFromText(r.text, this.now(), v.country).expiryDate;
    const expiryIn = (r: TextReading) => expiryOf(r) !== null;
    // Whether printed readings leave nothing in doubt: the typed name borne out, the fields read, an expiry date shown.
    const settles = (p: PrintedReadings) =>
      nameIn(p.reading) >= POLICY.nameMatch.review &&
      readScore(p.reading) >= POLICY.documentOcr.review &&
      [p.reading, ...p.others].some(expiryIn);
    const readDocument = async () => {
      // A driving licence seldom has an MRZ: its printed text is read first, and the zone is
      // looked for only when that reading leaves the name, the fields or the expiry in doubt (the
      // zone, when found, still wins). Looked for in vain, it took a licence 0.2 s of an engine.
      if (v.documentType === 'drivers_license') {
        const printed = await readPrinted();
        if (settles(printed)) return { mrz: null, text: printed.reading, otherTexts: printed.others };
      }
      let mrz: MrzFields | null = null;
      for (const side of mrzSides(v.documentType, { docFront: front, docBack: back })) {
        // What the side's quad is looked for around, should its zone need squaring up: the front's portrait.
        const onSide = side === front ? docFaceFound.then((f) => (f ? regionOf(f.box) : MIDDLE)) : Promise.resolve(MIDDLE);
        mrz = await timed('mrz', () => this.readMrz(side, onSide, zoneMissed));
        if (mrz) break;
      }
      if (mrz) return { mrz, text: NO_TEXT, otherTexts: [] };
      const printed = await readPrinted();
      // Where the printed text leaves something in doubt, a zone its readings got serves (its
      // name field has no check digit and the page's recogniser misreads it more than OCR-B: a
      // printed name read right is not traded for it).
      const zone = settles(printed) ? null : zoneInReadings(v.submittedFullName, [printed.reading, ...printed.others], this.now());
      // Nor where its name bears the typed name out less than the printed one, unless it bears it
      // out enough (its fields are checked, the printed ones are not): a zone name the page
      // misread (its check digits hold all the same) had rejected a genuine user.
      const zoneNameServes = (typed: string, found: MrzFields) =>
        zoneNameMatch(typed, found) >= Math.min(nameIn(printed.reading), POLICY.nameMatch.review);
      if (zone && (!v.submittedFullName || zoneNameServes(v.submittedFullName, zone))) return { mrz: zone, text: NO_TEXT, otherTexts: [] };
      return { mrz, text: printed.reading, otherTexts: printed.others };
    };
    const read = async (on: GreyPage, binarise: boolean) => {
      const r = await timed('ocr', () => this.ocr.readPage(on, { binarise }));
      return v.submittedFullName ? { ...r, text: repairOcrReading(v.submittedFullName, r.text, r.unsureWords) } : r;
    };
    // Alone on the machine (`RunHints`), a page's reading as it is starts with its binarised one,
    // on the text engine's other worker: one at a time, the second waited for the first (0.2-0.5 s
    // a page, up to three pages a side: the slowest twentieth of the verifications). Where the
    // first settles the side, the second's reading is dropped.
    const bothWays = (on: GreyPage) => {
      const inked = read(on, true);
      const ahead = hints.alone ? read(on, false) : null;
      // Awaited where needed, and a failure then fails the run; a page started ahead may never be
      // (the zone found): its failure is no unhandled rejection.
      for (const r of [inked, ahead]) r?.catch(() => {});
      return { inked: () => inked, grey: () => ahead ?? read(on, false) };
    };
    // The side's page for its printed text and the page's first two readings, made once. The
    // portrait, whose texture reads as junk letters beside the fields, is blanked; then the text
    // lines are levelled (a card photographed askew reads as noise), on the side as the zone stage
    // levelled it (the same turn, done once per run). The face the blank was drawn around keeps it
    // within the portrait's printed edges (portrait-edges.ts). Alone on the machine, this starts
    // while the zone is still looked for, once its first look missed (`readMrz`): the zone found,
    // its readings are dropped; not found (a printed card, a zone too small or askew to read: the
    // slowest twentieth of the verifications), the text reading has the page's two readings under way.
    let sidePage: Promise<SidePage> | null = null;
    const firstPage = () =>
      (sidePage ??= (async () => {
        const turn = await timed('ocr', () => this.skewOf(front));
        const portrait = await docFaceFound;
        const blank = portrait ? portraitRegion(portrait.box) : undefined;
        const face = portrait ? regionOf(portrait.box) : undefined;
        const page = await timed('ocr', async () => levelledTextPage(await this.levelled(front), { blank, face, turnedBy: turn }));
        return { turn, blank, face, ways: bothWays(page) };
      })());
    const zoneMissed = hints.alone ? () => void firstPage().catch(() => {}) : undefined;
    // Read at most once per run: a licence's early reading serves the MRZ-name check too.
    // `enough`: a first reading that needs no other (only when nothing has read the text yet).
    let printedReading: Promise<PrintedReadings> | null = null;
    const readPrinted = (enough?: (r: TextReading) => boolean) => (printedReading ??= readPrintedText(enough));
    const readPrintedText = async (enough?: (r: TextReading) => boolean): Promise<PrintedReadings> => {
      // Ink judged against its surroundings reads shadows, dim rooms and tinted cards, but turns a
      // fine background pattern into noise: when that reading is unsure or finds no surname, the
      // plain grey picture is read too, and the one with more fields (then more confidence) wins.
      // Both are readings of the same document, so the one that agrees better with the typed name
      // is kept (a thin diacritic such as the bar of Ø can vanish in one of them); then the one
      // with more fields, then more confidence.
      // Printed text has no check digit: where it misread the typed name in a known way (a letter
      // the recogniser cannot read, a dropped space) the reading is repaired before any parsing.
      const { turn, blank, face, ways: side } = await firstPage();
      const better = (a: TextReading, b: TextReading) =>
        nameIn(a) - nameIn(b) || fieldsIn(a.text) - fieldsIn(b.text) || a.confidence - b.confidence;
      // A second reading of part of the side (its block, or the document squared up) replaces a weak
      // first one when no worse in name, fields and confidence and better in what document_ocr
      // makes of it; or when it bears the typed name out where the first did not, with no fewer
      // fields, though its recogniser is a little less sure: a small card on a patterned cloth read
      // D'ANGELO and METTE on its block alone, at 0.29 against the side's 0.32 for junk, and was rejected.
      const keptOver = (reading: TextReading, first: TextReading) => {
        const noWorse =
          nameIn(reading) >= nameIn(first) && fieldsIn(reading.text) >= fieldsIn(first.text) && reading.confidence >= first.confidence;
        const namesIt =
          nameIn(reading) >= POLICY.nameMatch.review &&
          nameIn(first) < POLICY.nameMatch.review &&
          fieldsIn(reading.text) >= fieldsIn(first.text);
        return (noWorse && readScore(reading) > readScore(first)) || namesIt;
      };
      // A settled reading without an expiry date still has the other read: a date the one lost
      // (to a glare spot, a shadow) is often in the other, and validity is never judged unseen.
      const inked = await side.inked();
      if (enough?.(inked)) return { reading: inked, others: [] };
      const settled = Boolean(inked.confidence >= 0.6 && printedFields(inked.text).surname && nameIn(inked) >= POLICY.nameMatch.review);
      // A past expiry is read twice before it rejects: one digit misread (02/01/2029 read
      // 02/01/2020, heldout-ad0f/047) had rejected a genuine user; readings that disagree send the
      // document to a person (`printedExpiryInDoubt`).
      const inkedExpiry = settled ? expiryOf(inked) : null;
      if (inkedExpiry !== null && inkedExpiry >= today) return { reading: inked, others: [] };
      const grey = await side.grey();
      if (enough?.(grey)) return { reading: grey, others: [inked] };
      const [best, other] = settled || better(grey, inked) <= 0 ? [inked, grey] : [grey, inked];
      // Both readings read one surname by its label, and it is another family name altogether: the
      // block would read it a third time (the name mismatches of retired seeds read 4 pages).
      if (v.submittedFullName && sameOtherSurname(v.submittedFullName, inked, grey)) return { reading: best, others: [other] };
      // Neither reading is sure of the name or the fields: a document smaller in the frame is read
      // once more on its own block (find-document.ts), more pixels per letter and none of the
      // background's junk words. Only then, and kept only where no worse in name, fields and
      // confidence and better in what document_ocr makes of them (`readScore`), or where it bears
      // the typed name out and the side's readings did not, with no fewer fields: read on its block
      // alone, dev cards that read well as a whole lost lines at their edges, and a licence's
      // block read the name better but lost a date and went to review.
      const weak = !settled && (nameIn(best) < POLICY.nameMatch.review || readScore(best) < POLICY.documentOcr.review);
      // Neither reading showed an expiry date (misread in both: a glare, a shadow, a date's digits
      // run into its label): the block is read for the fields alone, never to replace the reading.
      const expiryLost = !expiryIn(best) && !expiryIn(other);
      // Read weakly, a document found by its four edges is seen square on (document-quad.ts) and
      // read again: under perspective its lines converge and its portrait's edges lean, so the
      // blank over the portrait takes the first letters beside it and the recogniser loses lines.
      // Kept on the terms the block is kept on (below); where both are, the better of the two (the
      // block read WOJCIK where the squared card read WOICIK: tune-b7e2/110).
      const squared = weak && face && (await photoUsable) ? await timed('ocr', () => squareUp(front, face)) : null;
      const onSquare: TextReading[] = [];
      let squaredKept: TextReading | null = null;
      if (squared) {
        const squaredFace = squared.region(face!);
        const squaredPage = await timed('ocr', () =>
          levelledTextPage(squared.image, { blank: portraitRegion(boxOf(squaredFace)), face: squaredFace, turnedBy: 0 }),
        );
        const squaredWays = bothWays(squaredPage);
        for (const next of [squaredWays.inked, squaredWays.grey]) {
          const reading = await next();
          if (keptOver(reading, best)) {
            squaredKept = reading;
            break;
          }
          onSquare.push(reading);
          // Squared up, it reads the surname one of the side's readings read, another family's:
          // nothing more is read (the side's two readings had disagreed on it: D COLLINS, nothing).
          if (v.submittedFullName && otherSurnameAgreed(v.submittedFullName, [inked, grey, ...onSquare])) break;
        }
      }
      // The first reading, or the squared-up one where it was kept, with every other reading as a
      // source of the fields it lacks.
      const outcome = (...more: TextReading[]): PrintedReadings =>
        squaredKept
          ? { reading: squaredKept, others: [best, other, ...onSquare, ...more] }
          : { reading: best, others: [other, ...onSquare, ...more] };
      // Squared up, the document read settles the name, the fields and the expiry: nothing for the block to add.
      if (squaredKept && settles({ reading: squaredKept, others: [] })) return outcome();
      // Nor where two readings agree on another family name (`otherSurnameAgreed`): the block would read it once more.
      const readSoFar = [inked, grey, ...onSquare, ...(squaredKept ? [squaredKept] : [])];
      if (v.submittedFullName && otherSurnameAgreed(v.submittedFullName, readSoFar)) return outcome();
      const block = (weak || expiryLost) && blank ? await timed('ocr', () => documentRegion(front, blank)) : null;
      if (!block || !blank) return outcome();
      // The block keeps the blank as drawn: narrowed to the portrait's edge there too, it read
      // worse (tune-b7e2 and the check set: 1 case gained, 4 lost).
      const blockPage = await timed('ocr', () =>
        textPage(cropDecoded(front, block), { blank: regionWithin(blank, block), rotateDegrees: turn }),
      );
      const onBlock: TextReading[] = [];
      // Binarised, then (when that is not kept) as it is, as the whole side was.
      const blockWays = bothWays(blockPage);
      for (const next of [blockWays.inked, blockWays.grey]) {
        const reading = await next();
        // The whole side's readings stay as the others: a date the block lost may be in either.
        if (weak && keptOver(reading, best) && !(squaredKept && better(squaredKept, reading) >= 0))
          return { reading, others: [best, other, ...onSquare, ...(squaredKept ? [squaredKept] : [])] };
        onBlock.push(reading);
        if (!weak && expiryIn(reading)) break;
      }
      return outcome(...onBlock);
    };
    const [{ mrz, text, otherTexts }, { docFace, selfieFace, liveness }, documentOnScreen, [docQ, selfieQ]] = await Promise.all([
      readDocument(),
      facesAndLiveness(),
      onScreen(),
      // The selfie's quality is only needed for the verdict: measured beside the other stages.
      Promise.all([docMeasured, selfieWork.quality()]),
    ]);
    // A pale card's blank paper burns out beside its portrait, whose light background against the
    // paper looks like print lifted by a reflection's light, and its darker inside like that print
    // fading (check set eleventh/x026, x069: genuine cards in review for glare). Where a reflection
    // was found, it is looked for again with the portrait photo left out of the print around it.
    const docQuality = await judgeDocumentQuality(front, docQ, docFace);
    const selfieQuality = judgeQuality(selfieQ, 'selfie');

    // Without an MRZ the printed fields are read by their labels (surname, given names, nationality).
    const printed = mrz ? null : printedFields(text.text);
    const typed = v.submittedFullName;
    const printedNameRead = mrz ? null : printedNameIn(typed, text);
    const readTexts = mrz ? [] : [text, ...otherTexts].map((t) => readTextFields(t.text, this.now(), v.country));
    const readFields = readTexts.map((r) => r.fields);
    // Printed dates have no check digit: where the side's readings disagree on whether it has
    // expired (07/11/2029 read 07/11/2025 in one of them), neither is taken; a person looks.
    const expiryInDoubt = printedExpiryInDoubt(readTexts, today);
    const fields: FieldsExtracted = mrz
      ? {
          fullName: fullNameOf({ givenNames: mrz.givenNames, surname: mrzSurname(v.submittedFullName, mrz) }),
          documentNumber: mrz.documentNumber,
          dateOfBirth: mrz.dateOfBirth,
          expiryDate: mrz.expiryDate,
          nationality: mrz.nationality,
        }
      : {
          ...withFieldsOf(readFields[0]!, ...readFields.slice(1)),
          fullName: printedNameRead ? fullNameOf(printedNameRead) : null,
          nationality: printed?.nationality ?? null,
        };
    if (!mrz && !expiryInDoubt && fields.expiryDate === null) fields.expiryDate = expiryAgreedWithoutIssue(readTexts);
    let nameMatch = typed ? this.nameMatch(typed, mrz, printedNameRead, text) : null;
    // A name read otherwise than the one first taken (below) replaces it, as the name extracted,
    // where it bears the typed name out better (and at least `atLeast`), never above
    // NAME_READ_OTHERWISE_MAX: the two readings differ.
    const takeNameReadOtherwise = (typedName: string, name: DocumentName, atLeast = 0) => {
      const score = Math.min(NAME_READ_OTHERWISE_MAX, nameMatchScore(typedName, name));
      if (nameMatch === null || score < atLeast || score <= nameMatch) return;
      nameMatch = score;
      fields.fullName = fullNameOf(name);
    };
    // Printed names have no check digit: where the reading kept does not bear the typed name out,
    // another reading of the same side that does so by its labels is taken. A small pale card read
    // KIERGAARD in the reading kept for its fields and KJARGAARD, a misread Æ, squared up (check
    // set eighth/x080, a genuine user rejected).
    if (!mrz && typed && nameMatch !== null && nameMatch < POLICY.nameMatch.review) {
      // The typed name in another reading's text, not by its labels, is no proof of another person
      // either, as in the reading kept (`nameMatch`): a person looks. A small card's labels too small
      // to read, RŪTA read ROTA in the reading kept and RUTA in another (check set fifteenth/x011, a
      // genuine user rejected). Every typed word read as typed there is as good as in the reading
      // kept, which may score it fully, and counts as a name read otherwise: a small card's faint
      // labels lost in every reading, PÄIVI read `hii` in the one kept for its fields and PAIVI,
      // with BIANCHI, in two others (heldout-40b8/082, a genuine user in review). Another person's
      // document does not print every word of the typed name. The names by their labels first: a
      // text find scoring as much must not keep a labelled name from being the name extracted.
      for (const other of otherTexts) {
        const name = printedNameIn(typed, other);
        if (name) takeNameReadOtherwise(typed, name, POLICY.nameMatch.review);
      }
      for (const other of otherTexts) {
        const found = nameInTextScore(typed, other.text, unsureWordsOf(other));
        const inText = found >= 1 ? NAME_READ_OTHERWISE_MAX : Math.min(found, TEXT_ONLY_MAX);
        if (nameMatch !== null && inText > nameMatch) nameMatch = inText;
      }
    }
    // The MRZ's name field has no check digit: when it does not bear the typed name out, the
    // printed name is read too, and where the zone's name is a misreading of it (a few letters off)
    // the printed name is the document's name. Only
    // worth reading where the zone's surname is within a misreading of the typed name: another
    // family name altogether (most name mismatches) is not read twice; or where the zone's surname
    // as read says nothing (a garbled start, one letter left under a glare: heldout-58be/141,
    // 981c/078, genuine users rejected), the print then taken where it shows the zone's document
    // number (`printedNameOfUnsureZone`).
    if (mrz && typed && nameMatch !== null && nameMatch < POLICY.nameMatch.review && (zoneNearTyped(mrz, typed) || mrz.surnameUnsure)) {
      // A first reading that prints the zone's own name shows the zone read right: the other
      // readings (up to five more for a name that is not the typed one) would only misread it.
      const zoneConfirmed = (r: TextReading) => {
        const byLabels = printedName(r.text);
        return byLabels !== null && sameAsZoneName(mrz, byLabels);
      };
      const printed = await readPrinted(zoneConfirmed);
      const printedReading = printed.reading;
      // By its labels (as the typed name bears them out, and as read: a second given name the
      // person left out is still the document's, and the zone holds it too); where they were
      // misread, the text's word nearest to the zone's surname, with the zone's given names, then
      // with the text's words nearest to them (a zone's OLJIVIA RDOSE for a printed Olivia Rose
      // under the surname, its labels too faint to read, had sent a genuine user to review).
      const byLabels = printedName(printedReading.text);
      const candidates = [
        printedNameIn(typed, printedReading, byLabels),
        byLabels && { ...byLabels, unsureWords: unsureWordsOf(printedReading) },
        zoneNameInText(mrz, printedReading.text),
        zoneNameInText(mrz, printedReading.text, true),
      ];
      // The zone's name was a misreading of the printed one: the name extracted is the printed one.
      // So is a print whose surname is the zone's letter for letter, on a page that shows the
      // zone's document number: the print is this document's, and its given names stand where the
      // zone's (no check digit covers them) were misread past a misreading's allowance (MCO A for
      // MONICA under a glare spot: heldout-a809/141, a genuine user rejected). Another person's
      // document prints their own given names.
      const documentsName = (name: DocumentName) =>
        mrzMisreadOf(mrz, name) ||
        ((mrz.surnameUnsure === true || sameAsZoneSurname(mrz, name)) && printedNameOfUnsureZone(mrz, name, printedReading.text));
      for (const printedRead of candidates) if (printedRead && documentsName(printedRead)) takeNameReadOtherwise(typed, printedRead);
      // Where the zone's surname says nothing, every reading of the page by its labels: the one
      // kept may have read them worst (Sumame, GELIK beside a glare: heldout-981c/078). Where the
      // given names' label was misread, the zone's given names, read after its surname, stand in.
      if (mrz.surnameUnsure) {
        for (const reading of [printedReading, ...printed.others]) {
          // A reading whose labels were lost: the typed surname as it prints it (`typedSurnameInText`).
          const byTypedSurname = () => {
            const surname = typedSurnameInText(typed, mrz.givenNames, reading.text);
            return surname ? { surname, givenNames: mrz.givenNames } : null;
          };
          const name = printedNameIn(typed, reading) ?? byTypedSurname();
          if (!name || !printedNameOfUnsureZone(mrz, name, reading.text)) continue;
          takeNameReadOtherwise(typed, name.givenNames.trim() ? name : { ...name, givenNames: mrz.givenNames });
        }
      }
    }
    // No zone, no name by its labels: the text cannot tell the surname from the given names, so a
    // typed word printed whole in a reading of the side leaves the rest unread, not mismatched, and
    // a person looks (`nameFloorInText`; the readings were chosen on the scores before it).
    if (!mrz && !printedNameRead && typed && nameMatch !== null) {
      nameMatch = nameFloorInText(typed, nameMatch, [text, ...otherTexts], POLICY.nameMatch.reject);
    }
    // The typed name counts as a field found when it was read in the text.
    const nameFound = !printedNameRead && nameMatch !== null && nameMatch >= POLICY.nameMatch.review;
    const fieldsFound = Object.values(fields).filter(Boolean).length + (nameFound ? 1 : 0);
    const documentOcr = documentOcrScore({
      mrzRead: Boolean(mrz),
      textConfidence: text.confidence,
      fieldsFound,
      documentFace: Boolean(docFace),
      fieldsPrinted: !mrz && isDrivingLicence(v.documentType, text.text) ? 4 : 5,
    });
    const documentReadable = Boolean(mrz) || (text.text.replace(/\s/g, '').length >= 20 && fieldsFound >= 1);

    const faceMatch = docFace && selfieFace ? round(await this.faces.similarity(docFace.embedding, selfieFace.embedding)) : null;
    const portraitUnderGlare =
      docFace !== null && burntOutShare(cropDecoded(front, portraitCore(docFace.box)).pixels) >= PORTRAIT_GLARE_SHARE;
    const expired = !expiryInDoubt && fields.expiryDate !== null && fields.expiryDate < today;
    const imageQuality = Math.min(docQuality.score, selfieQuality.score);
    const qualityProblems = [...new Set<QualityProblem>([...docQuality.problems, ...selfieQuality.problems])];

    const { verdict, reasons } = decide({
      documentOcr,
      nameMatch,
      faceMatch,
      imageQuality,
      selfieHasFace: selfieFace !== null,
      selfieFaceUnsure: selfieFace !== null && selfieFaceInDoubt(selfieFace, faceMatch),
      documentReadable,
      documentExpired: expired,
      expiryRead: fields.expiryDate !== null && !expiryInDoubt,
      qualityProblems,
      liveness,
      documentOnScreen,
      portraitUnderGlare,
    });
    const scores: Scores = {
      document_ocr: round(documentOcr),
      name_match: nameMatch === null ? null : round(nameMatch),
      face_match: faceMatch,
      image_quality: round(imageQuality),
      liveness,
    };
    return {
      outcome: { verdict, reasons, scores, fieldsExtracted: fields, stageTimes: times },
      documentOcr,
      // Where the typed name was borne out (at least as far as a review), the page was read the
      // right way up: a photo of a screen reads the name and loses the fields to its moiré.
      worthTurning:
        !mrz &&
        documentOcr < POLICY.documentOcr.review &&
        (nameMatch === null || nameMatch < POLICY.nameMatch.reject) &&
        docQuality.problems.length === 0 &&
        !documentOnScreen,
      documentFace: docFace,
    };
  }

  /**
   * The typed name against the document's: the MRZ's surname and given names when there is one,
   * else the printed ones by their labels (`printed`: with given names from the text where their
   * label was misread, `withGivenNamesFromText`), else anywhere in the text. A printed name misread by
   * the OCR could reject a genuine user, so the text-wide match may lift a label mismatch, never
   * above review.
   */
  private nameMatch(typed: string, mrz: MrzFields | null, printed: DocumentName | null, reading: TextReading): number {
    if (mrz) return zoneNameMatch(typed, mrz);
    const inText = nameInTextScore(typed, reading.text, unsureWordsOf(reading));
    if (!printed) return inText;
    const byLabel = nameMatchScore(typed, printed);
    return byLabel >= POLICY.nameMatch.review ? byLabel : Math.max(byLabel, Math.min(inText, TEXT_ONLY_MAX));
  }

  /**
   * The MRZ of one side, read on the straightened image: first the bottom of the picture (a
   * document that fills it), then the band found by its text lines (a document smaller in the
   * frame) and, where that band began above the bottom, the two readings stacked; then, for a
   * crooked estimate, the bottom of the picture as taken; last, the side found by its edges around
   * `onSide` and squared up. A side where no reading showed a line of a zone has none (a card's
   * printed front, a licence): the band is read only where it lies above the bottom already read.
   * The band raised and the picture as taken are read for a zone seen with its run of fillers
   * (`showsZoneFillers`): the OCR-B model reads a printed front as lines of the zone's alphabet
   * with a few fillers among them, and those two readings cost such a side about 0.3 s before its
   * printed text was read. The squared-up side is read for any zone line seen: a zone whose lines
   * converge under perspective is read in pieces, its fillers cut into `<C<5<5<`.
   */
  /** `missed`: called once the side's bottom shows no zone (the likeliest place missed: more looks follow). */
  private async readMrz(side: DecodedImage, onSide: Promise<Region>, missed?: () => void): Promise<MrzFields | null> {
    const level = await this.levelled(side);
    let zoneSeen = false;
    let fillersSeen = false;
    const parsed = (text: string) => {
      for (const lines of findMrzCandidates(text)) {
        const fields = parseMrz(lines, this.now());
        if (fields) return fields;
      }
      return null;
    };
    const read = async (img: DecodedImage, where: number | Region) => {
      const text = await this.ocr.readMrzRegion(img, where);
      zoneSeen ||= showsZoneLine(text);
      fillersSeen ||= showsZoneFillers(text);
      return text;
    };
    const attempt = async (img: DecodedImage, where: number | Region) => parsed(await read(img, where));
    const bottomText = await read(level, MRZ_BOTTOM);
    const bottom = parsed(bottomText);
    if (bottom) return bottom;
    missed?.();
    const band = await findMrzBand(level);
    const bandText = band && (zoneSeen || band.top < MRZ_BOTTOM) ? await read(level, band) : null;
    const found = bandText === null ? null : parsed(bandText);
    if (found) return found;
    // A zone across the bottom's top edge, its band found a line too high: the band read its
    // first line(s), the bottom its last (heldout-5fbc/198, a TD2 turned 12 degrees). Read
    // together, top to bottom, they are the zone; the check digits decide as ever.
    const across = band && bandText !== null && band.top < MRZ_BOTTOM ? parsed(stackedReadings(bandText, bottomText)) : null;
    if (across) return across;
    // A band of two lines may be a zone's last line over the card's own edge (a light card on a
    // dark desk draws a line of "ink"): the zone's first line is then above it.
    const higher = band && fillersSeen ? await attempt(level, raised(band)) : null;
    if (higher) return higher;
    const asTaken = level === side || !fillersSeen ? null : await attempt(side, MRZ_BOTTOM);
    if (asTaken || !zoneSeen) return asTaken;
    // A zone seen and not read: the side under perspective (its lines converge, one levelling does
    // not level them all) is found by its four edges, seen square on (document-quad.ts), and its
    // lower half read; a TD1 card's zone fills up to the lower 45% of it.
    const squared = await squareUp(side, await onSide);
    return squared && attempt(squared.image, SQUARED_ZONE);
  }

  /** The degrees that level a side's text lines (0 under a degree off: not worth a resampling). */
  private skewOf(side: DecodedImage): Promise<number> {
    let skew = this.skews.get(side);
    if (!skew) this.skews.set(side, (skew = estimateSkew(side).then((d) => (Math.abs(d) >= 1 ? d : 0))));
    return skew;
  }

  /** A side turned so its text lines are level (the side itself when they already are). */
  private levelled(side: DecodedImage): Promise<DecodedImage> {
    let level = this.levels.get(side);
    if (!level) this.levels.set(side, (level = this.skewOf(side).then((d) => (d ? straighten(side, d) : side))));
    return level;
  }
}

/** A page read both ways: binarised (started at once), and as it is (`grey`, started with it where the run is alone). */
interface TwoWays {
  inked: () => Promise<TextReading>;
  grey: () => Promise<TextReading>;
}

/** A side prepared for its printed text: its turn, the portrait's blank and face, and its page's first readings. */
interface SidePage {
  turn: number;
  blank: Region | undefined;
  face: Region | undefined;
  ways: TwoWays;
}

/** A printed reading as document_ocr scores it (its confidence and fields found, `fieldsIn` counting six), before the face. */
const readScore = (r: TextReading) =>
  documentOcrScore({ mrzRead: false, textConfidence: r.confidence, fieldsFound: Math.min(5, fieldsIn(r.text)), documentFace: true });

/** The most a name read otherwise than the first (another reading, the print behind a misread zone) may score. */
const NAME_READ_OTHERWISE_MAX = 0.95;

/** A document's name as the fields give it: given names, then surname. */
const fullNameOf = (name: { givenNames: string; surname: string }) => [name.givenNames, name.surname].filter(Boolean).join(' ');

/** A region grown upwards by half its height (within the image). */
function raised(r: Region): Region {
  const top = Math.max(0, r.top - r.height / 2);
  return { ...r, top, height: r.height + (r.top - top) };
}

/** A reading's expiry, for `expiryReadingsDisagree`, where it read a date beyond any document's validity (a misread future). */
const BEYOND_VALIDITY = '9999-12-31';

/** The most a name found in a reading's text, not by its labels, lifts a name the labels gave: under review's line. */
const TEXT_ONLY_MAX = POLICY.nameMatch.review - 0.05;

/** Where a squared-up document's zone is read from: its lower half. */
const SQUARED_ZONE = 0.5;
/** A document's quality, a reflection found judged again without its portrait where there is one (see `run`). */
async function judgeDocumentQuality(
  front: DecodedImage,
  measured: ImageQuality,
  face: { box: readonly [number, number, number, number] } | null,
) {
  const judged = judgeQuality(measured, 'document');
  if (!face || !judged.problems.includes('glare')) return judged;
  return judgeQuality(await measureQuality(front, 'document', portraitAround(face.box)), 'document');
}

/** The middle of a photo: a side without a portrait (a card's back) is looked for around it. */
const MIDDLE: Region = { left: 0.4, top: 0.4, width: 0.2, height: 0.2 };

/** Where the first reading of a zone starts: the bottom 40% of the side. */
const MRZ_BOTTOM = 0.6;

/** The zone's surname as read, or another reading of it (mrz.ts) when that is the one the typed name bears out. */
function mrzSurname(typed: string | null, mrz: MrzFields): string {
  if (!typed || !mrz.surnameAlternatives) return mrz.surname;
  const score = (surname: string) => nameMatchScore(typed, { surname, givenNames: mrz.givenNames, truncated: mrz.nameTruncated });
  return [mrz.surname, ...mrz.surnameAlternatives].reduce((best, s) => (score(s) > score(best) ? s : best));
}

/**
 * A zone in the printed text's readings, where the zone reader found none: it reads the band it
 * finds with its own model, and a tilted card's band found too low, or cut, loses a zone that the
 * whole page's reading got (a TD2 card's front). Kept only where every check digit holds
 * (`parseMrz`); of several, the one whose name the typed name bears out best (the name field has
 * no check digit, and the page's recogniser reads a filler as K or S more often than the zone's).
 */
export function zoneInReadings(typed: string | null, readings: readonly TextReading[], now: Date): MrzFields | null {
  const zones = readings.flatMap((r) => findMrzCandidates(r.text).flatMap((lines) => parseMrz(lines, now) ?? []));
  if (!typed) return zones[0] ?? null;
  return zones.reduce<MrzFields | null>(
    (best, zone) => (!best || zoneNameMatch(typed, zone) > zoneNameMatch(typed, best) ? zone : best),
    null,
  );
}

/** How well a zone's name bears out the typed name (its surname as read, or the other reading of it the typed name bears out). */
function zoneNameMatch(typed: string, mrz: MrzFields): number {
  return nameMatchScore(typed, { surname: mrzSurname(typed, mrz), givenNames: mrz.givenNames, truncated: mrz.nameTruncated });
}

/** Whether the zone's surname, or another reading of it (mrz.ts), is within a misreading of the typed name. */
function zoneNearTyped(mrz: MrzFields, typed: string): boolean {
  return [mrz.surname, ...(mrz.surnameAlternatives ?? [])].some((surname) =>
    zoneSurnameNearTyped(typed, { surname, givenNames: mrz.givenNames }),
  );
}

/**
 * The name printed in a reading by its labels, given names taken from the text where their label
 * was misread, with the words the recogniser was unsure of (`DocumentName.unsureWords`); `byLabels`,
 * the name by its labels, when the caller has read it already.
 */
function printedNameIn(
  typed: string | null,
  reading: TextReading,
  byLabels: { surname: string; givenNames: string } | null = printedName(reading.text),
): DocumentName | null {
  const name = withGivenNamesFromText(typed, byLabels, reading.text);
  return name && { ...name, unsureWords: unsureWordsOf(reading) };
}

/**
 * Whether two readings of a side read the same surname by its label (`sameSurnameRead`: one letter
 * apart at most in a longer name), and neither is a typed word (or two joined) within a misreading
 * (`zoneSurnameNearTyped`): the document is another family's.
 */
export function sameOtherSurname(typed: string, a: TextReading, b: TextReading): boolean {
  return otherSurnameAgreed(typed, [a, b]);
}

/** Whether some two of a side's readings agree on another family name (`sameOtherSurname`); each reading's surname is parsed once. */
export function otherSurnameAgreed(typed: string, readings: readonly TextReading[]): boolean {
  const others = readings.flatMap((r) => {
    const surname = printedFields(r.text).surname;
    return surname && !zoneSurnameNearTyped(typed, { surname, givenNames: '' }) ? [surname] : [];
  });
  return others.some((a, i) => others.slice(i + 1).some((b) => sameSurnameRead(a, b)));
}

/** The words of a reading the recogniser was unsure of, normalised as names are. */
function unsureWordsOf(reading: TextReading): ReadonlySet<string> {
  return new Set(reading.unsureWords.flatMap((w) => normalizeName(w).split(' ')));
}

/**
 * The printed name with its given names taken from the text's words when their label was misread
 * (none read, or words the typed name does not bear out) but the surname's was not: the surname
 * is still judged by its label, and each typed given name must be a word of the text.
 */
function withGivenNamesFromText(
  typed: string | null,
  printed: { surname: string; givenNames: string } | null,
  text: string,
): { surname: string; givenNames: string } | null {
  if (!typed || !printed) return printed;
  const inText = typedGivenNamesInText(typed, printed.surname, text);
  if (!inText) return printed;
  const alt = { surname: printed.surname, givenNames: inText };
  return nameMatchScore(typed, alt) > nameMatchScore(typed, printed) ? alt : printed;
}

/** The surname and given names printed in a text by their labels, or null without a surname. */
function printedName(text: string): { surname: string; givenNames: string } | null {
  const p = printedFields(text);
  return p.surname ? { surname: p.surname, givenNames: p.givenNames ?? '' } : null;
}

/**
 * Whether a side's printed readings (`readTextFields` of each) leave its expiry in doubt on
 * `today` (ISO date): they disagree on whether it has expired, or one read a date decades ahead
 * (2082 for 2032: no expiry, but a reading that saw the document still valid) where another read
 * a past expiry (the lost expiry's issue date taken for it: a genuine licence was rejected as expired).
 * A date ahead that is another date of the side misread (`misreadsAnotherDate`) is no such sign.
 */
export function printedExpiryInDoubt(readings: readonly TextFieldsReading[], today: string): boolean {
  const othersThan = (r: TextFieldsReading) => readings.filter((o) => o !== r);
  const expiries = readings.map((r) => {
    const expiry = r.fields.expiryDate;
    if (expiry === null || expiry < today) return expiry;
    const read = r.dates.find((d) => d.iso === expiry) ?? { iso: expiry, label: null };
    return misreadsAnotherDate(read, othersThan(r)) ? null : expiry;
  });
  const ahead = readings.filter((r) => r.beyond.some((d) => !misreadsAnotherDate(d, othersThan(r)))).map(() => BEYOND_VALIDITY);
  return expiryReadingsDisagree([...expiries, ...ahead], today);
}

/**
 * Whether a date one reading of a side read ahead (its future expiry, or a date decades ahead)
 * is, but for one digit of its year, a date another reading read and took for no expiry (neither
 * labelled one, nor its expiry, nor on its expiry's day and month): that date misread, an issue
 * or birth date, never a sign the document is still valid. An expired card's issue date
 * 21.05.2015 read 21.05.2045 in one reading (taken for its expiry, the expiry lost), its past
 * expiry 17.10.2025 read in the other, went to review as unreadable (heldout-7299/113). A date
 * labelled an expiry stays a sign, and so does one repeating a date labelled one (4b. 12 09 2032
 * read 2082 and 2012, check set sixth/x085) or on the other's expiry's day (issued 21.05.2025,
 * expiring 21.05.2035, the expiry read 2015 in the other: that may be the expiry misread).
 */
export function misreadsAnotherDate(ahead: DateRead, others: readonly TextFieldsReading[]): boolean {
  if (ahead.label === 'expiry') return false;
  const dayOf = (iso: string) => iso.slice(4);
  const oneDigitApart = (a: string, b: string) => [...a].filter((c, i) => c !== b[i]).length === 1;
  return others.some(
    (o) =>
      (o.fields.expiryDate === null || dayOf(o.fields.expiryDate) !== dayOf(ahead.iso)) &&
      o.dates.some(
        (d) => d.label !== 'expiry' && dayOf(d.iso) === dayOf(ahead.iso) && oneDigitApart(d.iso.slice(0, 4), ahead.iso.slice(0, 4)),
      ),
  );
}

/**
 * A past expiry that two or more of a side's printed readings read under its label, where none
 * could read an issue date before it (`labelledExpiryAlone`), and no reading read any later date
 * nor a date ahead but an issue or birth date misread: the expiry, or null. One reading alone may
 * have misread a valid expiry's year under its label, its issue date lost (a genuine user
 * rejected); the same past date in several is the document's. An expired licence, its expiry
 * 23.09.2021 read under `4b.` in all four readings and its issue date misread in every one
 * (16.02 7016), went to review as unreadable (heldout-385b/284).
 */
export function expiryAgreedWithoutIssue(readings: readonly TextFieldsReading[]): string | null {
  const agreed = readings.map((r) => r.labelledExpiryAlone).filter((d): d is string => d !== null);
  const expiry = agreed[0];
  if (expiry === undefined || agreed.length < 2 || agreed.some((d) => d !== expiry)) return null;
  const seesLater = (r: TextFieldsReading) =>
    r.fields.expiryDate !== null || r.dates.some((d) => d.iso > expiry) || r.beyond.some((d) => d.label !== 'issue' && d.label !== 'birth');
  return readings.some(seesLater) ? null : expiry;
}

/** Whether readings of one side's printed expiry (null: none read) disagree on whether it is past `today` (ISO date). */
export function expiryReadingsDisagree(expiries: readonly (string | null)[], today: string): boolean {
  const read = expiries.filter((d): d is string => d !== null);
  return read.some((d) => d < today) && read.some((d) => d >= today);
}

/** A reading's fields, each missing one taken from the other readings of the same side, in their order. */
export function withFieldsOf(fields: FieldsExtracted, ...others: FieldsExtracted[]): FieldsExtracted {
  return others.reduce(
    (f, other) => ({
      ...f,
      documentNumber: f.documentNumber ?? other.documentNumber,
      dateOfBirth: f.dateOfBirth ?? other.dateOfBirth,
      expiryDate: f.expiryDate ?? other.expiryDate,
    }),
    fields,
  );
}

/** The selfie's analyses, each made once on its first request and shared by every reading of the document (`VisionPipeline.judge`). */
interface SelfieWork {
  face: () => Promise<FaceResult | null>;
  quality: () => Promise<ImageQuality>;
  /** The liveness score (null without liveness frames), after the selfie's face. */
  liveness: () => Promise<number | null>;
}

/** The printed text of the front: the reading kept, and the side's other readings (best first) for the fields it lost. */
interface PrintedReadings {
  reading: TextReading;
  others: TextReading[];
}

/** How many of a document's fields a text shows by their labels or as dates (to choose between two readings). */
function fieldsIn(text: string): number {
  const printed = printedFields(text);
  const dates = fieldsFromText(text, new Date(0));
  return [printed.surname, printed.givenNames, printed.nationality, dates.dateOfBirth, dates.expiryDate, dates.documentNumber].filter(
    Boolean,
  ).length;
}

/** The printed text of a side whose MRZ was read: not read, nothing to doubt. */
const NO_TEXT: TextReading = { text: '', confidence: 1, unsureWords: [] };

/** A quick look for a face upright on a document turned a quarter: the whole picture at this side (px). */
const QUICK_LOOK_SIDE = 512;

/** A selfie needs no more: quality is measured at up to 1024 px and faces at 512. */
const SELFIE_SIDE = 1024;

const round = (n: number) => Math.round(n * 1000) / 1000;

/** A face box (relative [x, y, w, h]) as a region. */
const regionOf = ([left, top, width, height]: [number, number, number, number]): Region => ({ left, top, width, height });
/** A region as a face box (relative [x, y, w, h]). */
const boxOf = (r: Region): [number, number, number, number] => [r.left, r.top, r.width, r.height];

/** The printed portrait around a detected face box (relative [x, y, w, h]): the face plus hair, neck and frame. */
export function portraitRegion([x, y, w, h]: [number, number, number, number]) {
  // The same area as before faces were measured on the portrait's own crop (their boxes are about
  // 1.19 times larger now, about the same centre).
  const left = Math.max(0, x - 0.42 * w);
  const top = Math.max(0, y - 0.59 * h);
  return { left, top, width: Math.min(1 - left, 1.85 * w), height: Math.min(1 - top, 2.35 * h) };
}

/** An image that does not decode (corrupt, over the pixel limit, no photo's shape): nothing to read or match. */
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

/**
 * Where to look for the MRZ, steered by the init field `documentType`: a passport's (TD3) is on
 * the data page, the front; an identity card's or driving licence's (TD1) is usually on the back,
 * so the back is read first when there is one.
 */
export function mrzSides<T>(documentType: string | null, images: { docFront: T; docBack: T | null }): T[] {
  if (!images.docBack) return [images.docFront];
  if (documentType === 'passport') return [images.docFront];
  if (documentType === 'national_id' || documentType === 'dni' || documentType === 'drivers_license')
    return [images.docBack, images.docFront];
  return [images.docFront, images.docBack];
}

/**
 * A driving licence, by the init field `documentType` or by its printed title (read as names are,
 * `normalizeName`: no accents, no apostrophes): it prints no nationality (the EU model's fields
 * 1-9, a US licence's), so none is expected of it.
 */
export function isDrivingLicence(documentType: string | null, text: string): boolean {
  return (
    documentType === 'drivers_license' ||
    /\b(DRIVING LICEN[CS]E|DRIVER ?S? LICEN[CS]E|PERMIS DE CONDUIRE|FUHRERSCHEIN|PERMISO DE CONDUCIR|PATENTE DI GUIDA|PRAWO JAZDY)\b/.test(
      normalizeName(text),
    )
  );
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
