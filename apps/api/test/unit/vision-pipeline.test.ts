import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FaceModels } from '../../src/pipeline/read/faces/face-models.js';
import type { OcrEngine } from '../../src/pipeline/read/ocr/ocr.js';
import type { PipelineRequest } from '../../src/pipeline/pipeline.js';
import { composeTd1 } from '@service/fixtures/mrz-compose';
import { decide, POLICY, selfieFaceInDoubt } from '../../src/pipeline/decide/policy.js';
import { isDrivingLicence } from '../../src/pipeline/evidence/document-kind.js';
import { VisionPipeline } from '../../src/pipeline/vision-pipeline.js';
import { FACES_DIR, passportPage, textCard } from '@service/fixtures/synthetic-documents';
import { buildCase } from '@service/fixtures/eval-set';
import { cardPixels, photographInPerspective, PORTRAIT } from '../helpers/card-in-perspective.js';
import { checkSetPhoto } from '../helpers/check-set.js';
import { samplePassport } from '../helpers/sample-passport.js';

const fixtures = FACES_DIR;
const NOW = new Date('2026-11-21T12:00:00Z');
let pipeline: VisionPipeline;

beforeAll(async () => {
  pipeline = await VisionPipeline.start({ ocrWorkers: 1, now: () => NOW });
}, 90_000);
afterAll(() => pipeline?.stop());

const verification = (name: string | null): PipelineRequest => ({ submittedFullName: name, documentType: null, country: null });

const passport = async (opts: { expiry?: string; portrait?: string } = {}) => (await samplePassport(opts)).page;
/** "Same person" built from the one photograph there is of her: a re-cropped, re-lit copy. */
const astronautSelfie = () =>
  sharp(path.join(fixtures, 'astronaut.png'))
    .extract({ left: 40, top: 0, width: 420, height: 420 })
    .resize(640)
    .modulate({ brightness: 1.1 })
    .jpeg({ quality: 85 })
    .toBuffer();
const hopperSelfie = () => sharp(path.join(fixtures, 'grace_hopper.jpg')).resize(640).jpeg().toBuffer();
/** Every run's scores are reported to three decimals, as clients see them (never 0.7999999999999999). */
const run = async (name: string | null, docFront: Buffer, selfie: Buffer) => {
  const r = await pipeline.run(verification(name), { docFront, docBack: null, selfie, liveness: null });
  for (const score of Object.values(r.scores)) if (score !== null) expect(Math.round(score * 1000) / 1000).toBe(score);
  return r;
};

/** A retired held-out case (tuning data now) through the pipeline as a user's client sends it. */
const runRetiredCase = async (seed: string, index: number) => {
  const c = await buildCase('heldout', index, seed);
  const r = await pipeline.run(
    { submittedFullName: c.typedName, documentType: c.documentType, country: c.country },
    { docFront: c.docFront, docBack: c.docBack, selfie: c.selfie, liveness: null },
  );
  return { c, r };
};

describe('vision pipeline on synthetic documents', () => {
  it('a genuine passport and selfie with the typed name: approved, MRZ fields extracted', async () => {
    const r = await run('Ana Lucía Martínez García', await passport(), await astronautSelfie());
    expect(r.fieldsExtracted).toEqual({
      fullName: 'ANA LUCIA MARTINEZ GARCIA',
      documentNumber: 'PAB123456',
      dateOfBirth: '1990-02-28',
      expiryDate: '2031-05-14',
      nationality: 'ESP',
    });
    expect(r.scores).toMatchObject({ document_ocr: 1, name_match: 1, liveness: null });
    expect(r.scores.face_match).toBeGreaterThan(0.6);
    expect(r.scores.image_quality).toBeGreaterThan(0.5);
    expect(r).toMatchObject({ verdict: 'approved', reasons: [] });
    // A valid MRZ wins: the free-text OCR is skipped.
    expect(r.stageTimes!.mrz).toBeGreaterThan(0);
    expect(r.stageTimes!.ocr).toBe(0);
  }, 120_000);

  it('an identity card: documentType national_id reads the TD1 zone on the back', async () => {
    const front = await passportPage({
      surname: 'MARTÍNEZ GARCÍA',
      givenNames: 'ANA LUCÍA',
      documentNumber: 'CAA000001',
      nationality: 'ESP',
      dateOfBirth: '28 02 1990',
      expiryDate: '14 05 2031',
      mrz: [],
      portrait: path.join(fixtures, 'astronaut.png'),
    });
    const td1 = composeTd1({
      issuingState: 'ESP',
      surname: 'Martinez Garcia',
      givenNames: 'Ana Lucia',
      documentNumber: 'CAA000001',
      nationality: 'ESP',
      birthDate: '900228',
      sex: 'F',
      expiryDate: '310514',
    });
    const back = await passportPage({
      surname: '',
      givenNames: '',
      documentNumber: '',
      nationality: '',
      dateOfBirth: '',
      expiryDate: '',
      mrz: td1,
      portrait: path.join(fixtures, 'camera.png'),
    });
    const v: PipelineRequest = { submittedFullName: 'Ana Lucía Martínez García', documentType: 'national_id', country: 'ES' };
    const r = await pipeline.run(v, { docFront: front, docBack: back, selfie: await astronautSelfie(), liveness: null });
    expect(r.fieldsExtracted).toEqual({
      fullName: 'ANA LUCIA MARTINEZ GARCIA',
      documentNumber: 'CAA000001',
      dateOfBirth: '1990-02-28',
      expiryDate: '2031-05-14',
      nationality: 'ESP',
    });
    expect(r.scores.document_ocr).toBe(1);
    expect(r.verdict).toBe('approved');
  }, 120_000);

  it('a document without an MRZ falls back to free-text OCR for fields and name', async () => {
    const page = await passportPage({
      surname: 'MARTÍNEZ GARCÍA',
      givenNames: 'ANA LUCÍA',
      documentNumber: 'PAB123456',
      nationality: 'ESP',
      dateOfBirth: '28 02 1990',
      expiryDate: '14 05 2031',
      mrz: [],
      portrait: path.join(fixtures, 'astronaut.png'),
    });
    const r = await run('Ana Lucía Martínez García', page, await astronautSelfie());
    expect(r.stageTimes!.ocr).toBeGreaterThan(0);
    expect(r.fieldsExtracted).toMatchObject({ documentNumber: 'PAB123456', dateOfBirth: '1990-02-28', expiryDate: '2031-05-14' });
    expect(r.scores.name_match).toBeGreaterThanOrEqual(0.85);
    expect(r.scores.document_ocr).toBeLessThan(1);
    expect(r.verdict).toBe('approved');
  }, 120_000);

  it('another face in the selfie: not approved, face_mismatch', async () => {
    // Hopper against Collins's portrait: cosine 0.89, under the approval line but not a clear
    // difference (genuine cross-photo pairs go down to 0.86): a person looks.
    const r = await run('Ana Lucía Martínez García', await passport(), await hopperSelfie());
    expect(r.scores.face_match).toBeLessThan(POLICY.faceMatch.review);
    expect(r.verdict).not.toBe('approved');
    expect(r.reasons).toContain('face_mismatch');
  }, 120_000);

  it('another name typed: rejected with name_mismatch', async () => {
    const r = await run('Grace Brewster Hopper', await passport(), await astronautSelfie());
    expect(r.scores.name_match).toBeLessThan(0.6);
    expect(r).toMatchObject({ verdict: 'rejected' });
    expect(r.reasons).toContain('name_mismatch');
  }, 120_000);

  it('an expired document: rejected with document_expired', async () => {
    const r = await run('Ana Martinez Garcia', await passport({ expiry: '200101' }), await astronautSelfie());
    expect(r.fieldsExtracted.expiryDate).toBe('2020-01-01');
    expect(r.reasons).toContain('document_expired');
    expect(r.verdict).toBe('rejected');
  }, 120_000);

  it('a selfie framed high, her hair cut by the frame: review with no_face_in_selfie, her face matched, not rejected', async () => {
    // Eyes at a ninth of the height: a face cut at the eyes by a photo of the chest measures so too.
    const photo = await sharp(path.join(fixtures, 'astronaut.png')).resize(576, 576).toBuffer();
    const high = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c8c2b8' } })
      .composite([{ input: await sharp(photo).extract({ left: 0, top: 75, width: 576, height: 480 }).toBuffer(), left: 32, top: 0 }])
      .jpeg({ quality: 90 })
      .toBuffer();
    const r = await run('Ana Lucía Martínez García', await passport(), high);
    expect(r).toMatchObject({ verdict: 'review', reasons: ['no_face_in_selfie'] });
    expect(r.scores.face_match).toBeGreaterThan(POLICY.faceMatch.review);
  }, 120_000);

  it('a selfie without a face: rejected with no_face_in_selfie', async () => {
    const r = await run('Ana Lucía Martínez García', await passport(), await textCard());
    expect(r.reasons).toContain('no_face_in_selfie');
    expect(r.scores.face_match).toBeNull();
    expect(r.verdict).toBe('rejected');
  }, 120_000);

  it("another person's selfie in profile, found by the detector but not the mesh: not approved, face_mismatch and no_face_in_selfie", async () => {
    // Retired held-out fb38/141: had been rejected for no_face_in_selfie alone.
    const { r } = await runRetiredCase('heldout-fb38', 141);
    expect(r.verdict).not.toBe('approved');
    expect(r.reasons).toEqual(expect.arrayContaining(['face_mismatch', 'no_face_in_selfie']));
    // No mesh, so no descriptor to compare: no face_match at all.
    expect(r.scores.face_match).toBeNull();
  }, 120_000);

  it('bytes that start like a JPEG but do not decode: a verdict with its reasons, not an exception', async () => {
    const junk = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(500, 7)]);
    const r = await run('Ana', junk, junk);
    expect(r).toMatchObject({ verdict: 'rejected', reasons: ['document_unreadable', 'no_face_in_selfie'] });
    const selfieOnly = await run('Ana', await passport(), junk);
    expect(selfieOnly).toMatchObject({ verdict: 'rejected', reasons: ['no_face_in_selfie'] });
  }, 120_000);

  it('a hostile mix (truncated, oversized header, strip-shaped) never leaves an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    try {
      const doc = await passport();
      const truncated = Buffer.concat([doc.subarray(0, Math.floor(doc.length * 0.6)), Buffer.from([0xff, 0xd9])]);
      const small = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
        .jpeg()
        .toBuffer();
      const huge = Buffer.from(small);
      const sof = huge.indexOf(Buffer.from([0xff, 0xc0]));
      huge.writeUInt16BE(7000, sof + 5);
      huge.writeUInt16BE(7000, sof + 7);
      const strip = await sharp({ create: { width: 80, height: 4000, channels: 3, background: '#fff' } })
        .jpeg()
        .toBuffer();
      for (const bad of [truncated, huge, strip]) {
        const asDoc = await run('Ana Lucía Martínez García', bad, await astronautSelfie());
        expect(asDoc).toMatchObject({ verdict: 'rejected', reasons: ['document_unreadable'] });
        const asSelfie = await run('Ana Lucía Martínez García', doc, bad);
        expect(asSelfie.verdict).toBe('rejected');
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  }, 120_000);

  it('a passport photographed in portrait on a phone (EXIF orientation 6 and 8) is read, not failed', async () => {
    const page = await passport();
    for (const [orientation, turn] of [
      [6, -90],
      [8, 90],
    ] as const) {
      const stored = await sharp(page).rotate(turn).withMetadata({ orientation }).jpeg({ quality: 90 }).toBuffer();
      const r = await run('Ana Lucía Martínez García', stored, await astronautSelfie());
      expect(r.fieldsExtracted.documentNumber).toBe('PAB123456');
      expect(r.verdict).toBe('approved');
    }
  }, 120_000);

  it('a passport turned 8 degrees on a desk keeps its MRZ (straightened before reading)', async () => {
    const turned = await sharp(await passport())
      .rotate(8, { background: '#6b5a48' })
      .jpeg({ quality: 88 })
      .toBuffer();
    const r = await run('Ana Lucía Martínez García', turned, await astronautSelfie());
    expect(r.scores.document_ocr).toBe(1);
    expect(r.fieldsExtracted.documentNumber).toBe('PAB123456');
    expect(r.verdict).toBe('approved');
  }, 120_000);
});

describe('printed fields lost by both readings of a side', () => {
  it('a licence whose expiry both whole-side readings misread has it read on its block: approved, not sent to review', async () => {
    // Retired held-out case 599f/25: a US-style licence; EXP misread as "202 / 185" and "unas".
    const { c, r } = await runRetiredCase('heldout-599f', 25);
    expect(r.fieldsExtracted.expiryDate).toBe(c.document.expiry);
    expect(r.verdict).toBe('approved');
  }, 120_000);
});

describe('the forty-ninth round: a month whose J was lost, a zone whose issuing state is no code', () => {
  it('an expired licence whose issue date lost its J (15 UN 2006): rejected as expired, not in review unread', async () => {
    // Retired held-out a180/083: only the birth and expiry dates were read, 21.5 years apart.
    const { c, r } = await runRetiredCase('heldout-a180', 83);
    expect(r.fieldsExtracted.expiryDate).toBe(c.document.expiry);
    expect(r.verdict).toBe('rejected');
    expect(r.reasons).toEqual(['document_expired']);
  }, 120_000);
  it("a passport whose zone read the state TUI and the surname DQVIST: the print's LINDQVIST, read without its labels, approves", async () => {
    // Retired held-out a180/071: in review at 0.7, the print read LINDQUIST where its labels were read.
    const { r } = await runRetiredCase('heldout-a180', 71);
    expect(r.verdict).toBe('approved');
    expect(r.fieldsExtracted).toMatchObject({ fullName: 'MARY JOSE LINDQVIST', documentNumber: 'LR7975896' });
  }, 120_000);
});

describe("a zone the page's readings got, and dates by their labels", () => {
  const runCase = (index: number) => runRetiredCase('heldout-767d', index);
  it("a tilted TD2 card whose zone the zone reader missed is read from the page's zone: approved, its fields checked", async () => {
    // Retired held-out case 767d/186: the printed name was read without its labels (review for
    // name_mismatch and document_unreadable); every check digit of the zone the page read holds.
    const { r } = await runCase(186);
    expect(r.verdict).toBe('approved');
    expect(r.fieldsExtracted).toMatchObject({ documentNumber: 'WW2299006', nationality: 'CZE', expiryDate: '2028-09-26' });
  }, 120_000);
  it('a passport whose zone the page misread is not rejected on it: the printed name bears the typed name out better', async () => {
    // Held-out case 1e4e/70 (read after the sixteenth round's report): the page read the zone's
    // JOSEPHINE<ANGELA as JOSEPHINE<CANGELA<LLLLCLLLLKL, every check digit holding; taken over the
    // printed name it had rejected a genuine user for name_mismatch.
    const { r } = await runRetiredCase('heldout-1e4e', 70);
    expect(r.scores.name_match).toBeGreaterThanOrEqual(POLICY.nameMatch.review);
    expect(r.verdict).not.toBe('rejected');
  }, 120_000);
  it('a card filling a 480 x 640 frame whose given names only its block reads is approved, not rejected', async () => {
    // Retired held-out case 4424/110, a card on a desk turned 11 degrees: the whole side read
    // COLLINS but lost the given names (0.5, rejected); its block read them all, at 0.45
    // confidence against the side's 0.47.
    const { r } = await runRetiredCase('heldout-4424', 110);
    expect(r.scores.name_match).toBeGreaterThanOrEqual(POLICY.nameMatch.review);
    expect(r.verdict).toBe('approved');
  }, 120_000);
  it("a licence whose expiry's slashes were read as strokes (1212212030) has its expiry read", async () => {
    // Held-out case f0c5/073 (the thirty-ninth round's report): no expiry read, in review.
    const { c, r } = await runRetiredCase('heldout-f0c5', 73);
    expect(r.fieldsExtracted.expiryDate).toBe(c.document.expiry);
    expect(r.verdict).toBe('approved');
  }, 120_000);
  it('a TD1 zone that read a digit in a given name (CH9JE) is redeemed by the printed name, which is the name extracted', async () => {
    // Retired held-out case 4424/150: the zone's given names failed the MRZ package's check and
    // were lost (VAN DIJK alone, 0.7, review); the front prints SOFIE CHLOE without labels.
    const { r } = await runRetiredCase('heldout-4424', 150);
    expect(r.fieldsExtracted.fullName).toBe('SOFIE CHLOE VAN DIJK');
    expect(r.verdict).toBe('approved');
  }, 120_000);
  it('a passport whose zone misread the given names as letters is redeemed by the given names printed under the surname without labels', async () => {
    // Check set seventh/x034 (test/fixtures/check-set): the zone read OLJIVIA<RDOSE for Olivia
    // Rose, no check digit covering it (0.7, review); the page prints Olivia Rose under PEMBERTON,
    // its labels too faint for the recogniser.
    const front = checkSetPhoto('seventh-x034', 'front');
    const r = await run('olivia pemberton', front, await hopperSelfie());
    expect(r.fieldsExtracted.fullName).toBe('OLIVIA ROSE PEMBERTON');
    expect(r.scores.name_match).toBeGreaterThanOrEqual(POLICY.nameMatch.review);
    expect(r.verdict).toBe('approved');
  }, 120_000);
  it('a small card whose surname the kept reading misread is approved on another reading of it that bears the typed name out by its label', async () => {
    // Check set eighth/x080 (test/fixtures/check-set), 640 x 480: the grey reading kept for its
    // fields read KIERGAARD for KJÆRGAARD (0.5: rejected); the card squared up read KJARGAARD
    // under its Surname label (a misread Æ).
    const front = checkSetPhoto('eighth-x080', 'front');
    const r = await run('Søren Kjærgaard', front, await astronautSelfie());
    expect(r.scores.name_match).toBeGreaterThanOrEqual(POLICY.nameMatch.review);
    // Read KIERGAARD and KJARGAARD by two readings, the surname is not settled: not reported.
    expect([null, 'SOREN KJAERGAARD', 'SOREN KJARGAARD']).toContain(r.fieldsExtracted.fullName);
    expect(r.verdict).toBe('approved');
  }, 120_000);
  it('a small card whose labels no reading could read, the typed name in the text of a reading not kept, goes to review rather than rejected', async () => {
    // Check set fifteenth/x011 (test/fixtures/check-set), 640 x 480: the reading kept shows
    // KAZLAUSKIENE and ROTA for RŪTA (0.5: a genuine user rejected); another reading shows RUTA,
    // with no label for either.
    const front = checkSetPhoto('fifteenth-x011', 'front');
    const r = await run('rūta kazlauskienė', front, await astronautSelfie());
    // RUTA read in another reading of the side: the name part the readings did not settle is
    // compared as each saw it, a pass under a settled name.
    expect(r.scores.name_match).toBeGreaterThanOrEqual(POLICY.nameMatch.review);
    expect(r.verdict).not.toBe('rejected');
  }, 120_000);
  it('a card whose labels no reading could read, every typed word in a reading not kept, is approved on it', async () => {
    // heldout-40b8/082 (retired): the reading kept for its fields read BIANCHI and `hii` for
    // PÄIVI, its faint labels lost; the card's block read BIANCHI and PAIVI (0.8, review, before).
    const { r } = await runRetiredCase('heldout-40b8', 82);
    expect(r.scores.name_match).toBeGreaterThanOrEqual(POLICY.nameMatch.review);
    expect(r.verdict).toBe('approved');
  }, 120_000);
  // Retired held-out cases whose zone's name was misread, each a genuine user rejected (0.3): the
  // print, by its labels or where it shows the zone's document number, is the name extracted.
  it.each<[seed: string, index: number, fields: Record<string, string>, what: string]>([
    [
      'heldout-6e77',
      290,
      { fullName: 'FRANCOIS D ANGELO' },
      "a TD2 zone that lost the `<<` before the given names (DANGELO RANCOIS<<< for D'ANGELO<<FRANCOIS, the whole name its surname); the card prints both by their labels",
    ],
    [
      'heldout-58be',
      141,
      { fullName: 'OONA SOFIE ANA HORVATH', documentNumber: 'SK8996961' },
      "a TD2 zone whose first line lost its start (<<TMR1MVYRVAIH<<OONA<SOFIE<ANA for I<PRTHORVATH<<OONA<SOFIE<ANA, line 2's check digits holding); the print shows the zone's number",
    ],
    [
      'heldout-981c',
      78,
      { fullName: 'ANA JOAO ANNE MARIE CELIK', documentNumber: 'FZ6179482' },
      "a passport zone that kept one letter of the surname under a glare spot (P<ITA< K<<ANA<JOAO<ANNE<MARIE); a page reading prints Surname CELIK and the number, its given names' label misread: the zone's given names stand in",
    ],
    [
      'heldout-981c',
      85,
      { fullName: 'GULSEN GONCALVES', documentNumber: 'BJ0263011' },
      'a passport zone whose document code was misread (F<DNKGUNUCALVEO<<BUELOEN for P<DNKGONCALVES<<GULSEN); the page prints Surname GONCALVES and the number',
    ],
    [
      'heldout-926b',
      174,
      { fullName: 'SOFIE OEYDIS DVORAK', documentNumber: 'AK6786789' },
      'a passport zone that kept two letters of the surname (P<FIND K<<SOFIE<OEYDIS for P<FINDVORAK<<...); the page prints Surname DVORAK (its given names read unsurely: the zone keeps them, transliterated) and the number with one character misread (AKB786789)',
    ],
    [
      'heldout-f0c5',
      66,
      { fullName: 'CHLOE DUPONT' },
      "a TD2 zone that kept three letters of the surname, its start lost (IDES PONT<<CHLOE for I<ESPDUPONT<<CHLOE); the print shows the zone's number",
    ],
    [
      'heldout-a809',
      141,
      { fullName: 'MONICA MARTINEZ GARCIA' },
      "a passport zone whose given names a glare spot garbled (MARTINEZ<GARCIA<<MCO A for ...<<MONICA); the print's surname is the zone's and it shows the zone's number",
    ],
  ])('%s case %i: %j, approved (%s)', { timeout: 120_000 }, async (seed, index, fields) => {
    const { r } = await runRetiredCase(seed, index);
    expect(r.fieldsExtracted).toMatchObject(fields);
    expect(r.verdict).toBe('approved');
  });
  it('a card whose expiry was misread into the past under its label is not expired on its issue date', async () => {
    // Retired held-out case 2cb7/222: the first reading read the expiry 16 04 2029 as 16 04 2020,
    // and the issue date 25 10 2024, the latest of three, was taken for the expiry (rejected as
    // expired). Labelled as the issue's, it is not; the other reading reads the expiry.
    const { r } = await runRetiredCase('heldout-2cb7', 222);
    expect(r.fieldsExtracted.expiryDate).toBe('2029-04-16');
    expect(r.verdict).toBe('approved');
  }, 120_000);
  it('a past expiry on the first reading less than a year after a date before it is no expiry: the other reading reads it', async () => {
    // Retired held-out case ad0f/047, a licence: the first reading, sure of the name, read EXP
    // 02/01/2029 as 02/01/2020 and settled the page (rejected as expired); read twice, the readings
    // disagreed (review). 2020 is under a year after the date read before it: no validity, no
    // expiry of that reading, and the grey reading's 2029 is the page's (a genuine user approved).
    const { r } = await runRetiredCase('heldout-ad0f', 47);
    expect(r.fieldsExtracted.expiryDate).toBe('2029-02-01');
    expect(r.verdict).toBe('approved');
  }, 120_000);
  it('a TD1 zone whose first line lost its issuing state is read, the state taken from the nationality', async () => {
    // Retired held-out case 58be/063: I<NLDBC7690366 read IRBC7690366; the print read WOJCIK as WOICIK (review).
    const { r } = await runRetiredCase('heldout-58be', 63);
    expect(r.fieldsExtracted).toEqual({
      fullName: 'FRANCOIS LEILA WOJCIK',
      documentNumber: 'BC7690366',
      dateOfBirth: '1994-11-27',
      expiryDate: '2033-12-24',
      nationality: 'NLD',
    });
    // From the zone: the print was not read.
    expect(r.stageTimes!.ocr).toBe(0);
    expect(r.verdict).toBe('approved');
  }, 120_000);
  it("a pale card whose white paper burns out beside its portrait is approved: the portrait's edge is no reflection", async () => {
    // Check set eleventh/x069 (test/fixtures/check-set): in review for glare, image_quality 0.
    const front = checkSetPhoto('eleventh-x069', 'front');
    const r = await run('IVANA HORVAT', front, await astronautSelfie());
    expect(r.scores.image_quality).toBe(1);
    expect(r.verdict).toBe('approved');
  }, 120_000);
  it("a passport whose zone lost its surname's first letters under a glare spot, and whose holder typed one given name of two, is approved", async () => {
    // Retired held-out case f081/251 (640 x 480): the zone read NDERGAARD<<EMILIE<ELIZABETH for
    // Émilie Søndergaard (0.3: rejected). The page prints SØNDERGAARD, EMILIE ELIZABETH by their
    // labels; taken as the typed name bears them out (EMILIE alone) it was no misreading of the zone.
    const { r } = await runRetiredCase('heldout-f081', 251);
    expect(r.fieldsExtracted.fullName).toBe('EMILIE ELIZABETH SONDERGAARD');
    expect(r.verdict).toBe('approved');
  }, 120_000);
  it('an expired licence whose birth date was misread is rejected for document_expired: its expiry is labelled (XP)', async () => {
    // Retired held-out case 767d/212: two past dates read, the later one under its label.
    const { c, r } = await runCase(212);
    expect(r.fieldsExtracted.expiryDate).toBe(c.document.expiry);
    expect(r.verdict).toBe('rejected');
    expect(r.reasons).toContain('document_expired');
  }, 120_000);
});

describe('a document too blurred to use', () => {
  it('is not searched tile by tile for its portrait; a sharp one is', async () => {
    const faces = (pipeline as unknown as { faces: FaceModels }).faces;
    const analyseDocument = faces.analyseDocument.bind(faces);
    const decisions: boolean[] = [];
    faces.analyseDocument = async (img, opts) => {
      decisions.push(await (opts?.searchTiles ?? true));
      return analyseDocument(img, opts);
    };
    try {
      const page = await passport();
      const blurred = await run('Ana Lucía Martínez García', await sharp(page).blur(12).jpeg().toBuffer(), await astronautSelfie());
      expect(blurred.reasons).toContain('blurry_image');
      expect(blurred.verdict).not.toBe('approved');
      const sharpPage = await run('Ana Lucía Martínez García', page, await astronautSelfie());
      expect(sharpPage.verdict).toBe('approved');
      expect(decisions).toEqual([false, true]);
    } finally {
      faces.analyseDocument = analyseDocument;
    }
  }, 120_000);
});

describe('a document photographed off a screen, its grid where the axial band does not look', () => {
  // Retired held-out cases approved before the whole band (screen-capture.ts): ad0f/128, a
  // passport page turned 12 degrees, its grid's peak past the axes' limit; f4cc/221, a card whose
  // grid peaked half a bin beside a JPEG block-grid frequency. Both faces under 128 px. 3f70/215,
  // a face of 50 px, measures 0.209: under the line tiles of 64 had before (0.22), over the one line.
  it.each([
    ['heldout-ad0f', 128],
    ['heldout-f4cc', 221],
    ['heldout-3f70', 215],
  ])(
    '%s/%s is not approved and carries document_on_screen',
    async (seed, index) => {
      const { c, r } = await runRetiredCase(seed, index);
      expect(c.cls).toBe('screen_photo');
      expect(r.reasons).toContain('document_on_screen');
      expect(r.verdict).not.toBe('approved');
    },
    120_000,
  );
});

describe('a document photographed on its side or upside down, without an orientation tag', () => {
  /** Runs a retired case, its front replaced by `docFront` when given, counting the full readings of the front (its portrait searched). */
  const readingsOfFront = async (c: Awaited<ReturnType<typeof buildCase>>, docFront = c.docFront) => {
    const faces = (pipeline as unknown as { faces: FaceModels }).faces;
    const analyseDocument = vi.spyOn(faces, 'analyseDocument');
    try {
      const r = await pipeline.run(
        { submittedFullName: c.typedName, documentType: c.documentType, country: c.country },
        { docFront, docBack: docFront === c.docFront ? c.docBack : null, selfie: c.selfie, liveness: null },
      );
      return { r, readings: analyseDocument.mock.calls.length };
    } finally {
      analyseDocument.mockRestore();
    }
  };

  // Retired held-out cases of f0c5, genuine, their fronts turned as a card laid the wrong way on
  // the desk, or a sideways phone photo whose tag was dropped: each was rejected for
  // document_unreadable and name_mismatch (20 of 20, turned 90 and 180 degrees).
  // Full readings of the front: as taken, then turned as its portrait points (a licence's on its
  // side, either way, points a quarter turn); a passport upside down shows no portrait upright: a
  // half turn. A card on its side whose portrait was missed as taken: a half turn, then the
  // quarter where a quick look finds a face upright.
  it.each<[index: number, turn: 90 | 180 | 270, readings: number]>([
    [3, 180, 2], // a passport page
    [6, 90, 2], // a driving licence
    [10, 270, 2], // a TD2 card
    [15, 90, 3], // an identity card without a zone
  ])(
    'heldout-f0c5/%s turned %s degrees is read turned back and approved',
    async (index, turn, readings) => {
      const c = await buildCase('heldout', index, 'heldout-f0c5');
      expect(c.cls).toMatch(/^genuine_/);
      const run = await readingsOfFront(c, await sharp(c.docFront).rotate(turn).jpeg({ quality: 92 }).toBuffer());
      expect(run.r).toMatchObject({ verdict: 'approved', reasons: [] });
      expect(run.r.fieldsExtracted.expiryDate).toBe(c.document.expiry);
      expect(run.readings).toBe(readings);
    },
    120_000,
  );

  it('a photo of a screen that reads the typed name but not the fields is not read turned', async () => {
    // Retired held-out case 8d2b/023: the moiré cost the fields (document_ocr 0.275), not the name
    // (0.637): the page was read the right way up. Read turned too, it took twice the time.
    const c = await buildCase('heldout', 23, 'heldout-8d2b');
    expect(c.cls).toBe('screen_photo');
    const { r, readings } = await readingsOfFront(c);
    expect(r.verdict).not.toBe('approved');
    expect(r.scores.document_ocr).toBeLessThan(POLICY.documentOcr.review);
    expect(r.scores.name_match).toBeGreaterThanOrEqual(POLICY.nameMatch.reject);
    expect(readings).toBe(1);
  }, 120_000);

  it('an upright document that reads is not read turned', async () => {
    const c = await buildCase('heldout', 3, 'heldout-f0c5');
    const { r, readings } = await readingsOfFront(c);
    expect(r.verdict).toBe('approved');
    expect(readings).toBe(1);
  }, 120_000);
});

describe('a driving licence: its printed text first, the zone only when that leaves doubt', () => {
  it('a licence whose printed reading bears out the name, fields and expiry is not searched for a zone; one with another name typed is', async () => {
    // Retired held-out case c2f0/6: a licence without any MRZ.
    const c = await buildCase('heldout', 6, 'heldout-c2f0');
    expect(c.documentType).toBe('drivers_license');
    const images = { docFront: c.docFront, docBack: c.docBack, selfie: c.selfie, liveness: null };
    const settled = await pipeline.run({ submittedFullName: c.typedName, documentType: c.documentType, country: c.country }, images);
    expect(settled).toMatchObject({ verdict: 'approved', reasons: [] });
    expect(settled.stageTimes!.ocr).toBeGreaterThan(0);
    expect(settled.stageTimes!.mrz).toBe(0);
    const doubt = await pipeline.run({ submittedFullName: 'Zygmunt Quarles', documentType: c.documentType, country: c.country }, images);
    expect(doubt.reasons).toContain('name_mismatch');
    expect(doubt.stageTimes!.mrz).toBeGreaterThan(0);
  }, 120_000);
});

describe('policy', () => {
  const ok = {
    documentOcr: 1,
    nameMatch: 1,
    faceMatch: 0.9,
    imageQuality: 1,
    selfieHasFace: true,
    documentReadable: true,
    documentExpired: false,
    qualityProblems: [],
    liveness: null,
    documentOnScreen: false,
  };
  it('approves when every score clears its review line', () => {
    expect(decide(ok)).toEqual({ verdict: 'approved', reasons: [] });
    expect(decide({ ...ok, nameMatch: null })).toEqual({ verdict: 'approved', reasons: [] });
  });
  it('reviews between the lines, rejects below them, with reasons', () => {
    expect(decide({ ...ok, faceMatch: 0.6 })).toEqual({ verdict: 'review', reasons: ['face_mismatch'] });
    expect(decide({ ...ok, faceMatch: POLICY.faceMatch.review })).toEqual({ verdict: 'approved', reasons: [] });
    expect(decide({ ...ok, faceMatch: 0.35, nameMatch: 0.7 })).toEqual({
      verdict: 'rejected',
      reasons: ['face_mismatch', 'name_mismatch'],
    });
    expect(decide({ ...ok, qualityProblems: ['blurry_image'] })).toEqual({ verdict: 'review', reasons: ['blurry_image'] });
    expect(decide({ ...ok, qualityProblems: ['image_too_dark', 'glare'] })).toEqual({
      verdict: 'review',
      reasons: ['image_too_dark', 'glare'],
    });
    expect(decide({ ...ok, imageQuality: 0.1, qualityProblems: ['low_resolution'] })).toEqual({
      verdict: 'review',
      reasons: ['low_resolution'],
    });
    expect(decide({ ...ok, faceMatch: null })).toEqual({ verdict: 'review', reasons: ['face_mismatch'] });
    // A recapture goes to a person whatever else scored, with its own reason.
    expect(decide({ ...ok, documentOnScreen: true })).toEqual({ verdict: 'review', reasons: ['document_on_screen'] });
    expect(decide({ ...ok, documentOnScreen: true, faceMatch: 0.2 })).toEqual({
      verdict: 'rejected',
      reasons: ['face_mismatch', 'document_on_screen'],
    });
    expect(decide({ ...ok, documentExpired: true }).reasons).toEqual(['document_expired']);
  });
  it('a driving licence by its document type or by its printed title, in the languages licences use', () => {
    expect(isDrivingLicence('drivers_license', [])).toBe(true);
    for (const title of ['DRIVING LICENCE', "DRIVER'S LICENSE", 'Permis de conduire', 'FÜHRERSCHEIN', 'PRAWO JAZDY'])
      expect(isDrivingLicence(null, [`${title}\n1. ROSSI`])).toBe(true);
    expect(isDrivingLicence(null, ['IDENTITY CARD\nSurname ROSSI'])).toBe(false);
    expect(isDrivingLicence('national_id', ['CARTE NATIONALE D IDENTITE'])).toBe(false);
  });
  it('a selfie face the detector is unsure of is never approved on its match', () => {
    // Maybe no face at all: a person looks, with the reason that names it.
    expect(decide({ ...ok, selfieFaceUnsure: true })).toEqual({ verdict: 'review', reasons: ['no_face_in_selfie'] });
    expect(decide({ ...ok, selfieFaceUnsure: true, faceMatch: 0.2 })).toEqual({
      verdict: 'rejected',
      reasons: ['face_mismatch', 'no_face_in_selfie'],
    });
    // Matched above the approval line but under the line an unsure face needs: the reviewer is
    // told the face was not borne out either; above it, only that the face is unsure.
    const between = (POLICY.faceMatch.review + POLICY.selfieFace.confirmMatch) / 2;
    expect(decide({ ...ok, selfieFaceUnsure: true, faceMatch: between })).toEqual({
      verdict: 'review',
      reasons: ['no_face_in_selfie', 'face_mismatch'],
    });
    expect(decide({ ...ok, selfieFaceUnsure: true, faceMatch: POLICY.selfieFace.confirmMatch })).toEqual({
      verdict: 'review',
      reasons: ['no_face_in_selfie'],
    });
    expect(decide({ ...ok, faceMatch: between })).toEqual({ verdict: 'approved', reasons: [] });
    // No face at all still rejects.
    expect(decide({ ...ok, selfieHasFace: false, selfieFaceUnsure: true, faceMatch: null }).verdict).toBe('rejected');
    expect(decide({ ...ok, selfieFaceUnsure: false })).toEqual({ verdict: 'approved', reasons: [] });
  });
  it('a selfie face in doubt: unsure, at the edge, meshless, or framed high and close without a sure match', () => {
    const sure = { score: 1 };
    expect(selfieFaceInDoubt(sure, POLICY.faceMatch.review)).toBe(false);
    expect(selfieFaceInDoubt({ score: 0.4 }, 0.9)).toBe(true);
    expect(selfieFaceInDoubt({ ...sure, atFrameEdge: true }, 0.95)).toBe(true);
    expect(selfieFaceInDoubt({ ...sure, meshless: true }, 0.95)).toBe(true);
    // Framed high and close: taken on a sure match (a face cut at the eyes is framed so too, its
    // eyes guessed by the mesh: Collins fitted to 1280 x 720 matched her own photo at 0.40).
    expect(selfieFaceInDoubt({ ...sure, framedHigh: true }, POLICY.selfieFace.confirmMatch)).toBe(false);
    expect(selfieFaceInDoubt({ ...sure, framedHigh: true }, 0.4)).toBe(true);
    expect(selfieFaceInDoubt({ ...sure, framedHigh: true }, null)).toBe(true);
  });
  it('a portrait under a reflection: its low face match reviews, with the glare, instead of rejecting', () => {
    // Retired held-out 5fbc/266: a glare spot over the printed face, a genuine user rejected at 0.28.
    expect(decide({ ...ok, faceMatch: 0.28, portraitUnderGlare: true })).toEqual({
      verdict: 'review',
      reasons: ['face_mismatch', 'glare'],
    });
    expect(decide({ ...ok, faceMatch: 0.6, portraitUnderGlare: true })).toEqual({ verdict: 'review', reasons: ['face_mismatch', 'glare'] });
    // A face that matched all the same is approved, the reflection unreported: it hid nothing that mattered.
    expect(decide({ ...ok, faceMatch: POLICY.faceMatch.review, portraitUnderGlare: true })).toEqual({ verdict: 'approved', reasons: [] });
    // Other rejecting reasons still reject.
    expect(decide({ ...ok, faceMatch: 0.28, portraitUnderGlare: true, nameMatch: 0.3 }).verdict).toBe('rejected');
    expect(decide({ ...ok, faceMatch: 0.28 })).toEqual({ verdict: 'rejected', reasons: ['face_mismatch'] });
  });
  it('never approves a document whose expiry date was not read (its validity is unknown)', () => {
    expect(decide({ ...ok, expiryRead: false })).toEqual({ verdict: 'review', reasons: ['document_unreadable'] });
    expect(decide({ ...ok, expiryRead: false, documentExpired: true }).reasons).toEqual(['document_expired']);
  });
});

describe('liveness policy', () => {
  const ok = {
    documentOcr: 1,
    nameMatch: 1,
    faceMatch: 0.9,
    imageQuality: 1,
    selfieHasFace: true,
    documentReadable: true,
    documentExpired: false,
    qualityProblems: [],
    documentOnScreen: false,
  };
  it('all steps passed approves; one missed step reviews; half or fewer rejects', () => {
    expect(decide({ ...ok, liveness: 1 }).verdict).toBe('approved');
    expect(decide({ ...ok, liveness: 0.75 })).toEqual({ verdict: 'review', reasons: ['liveness_failed'] });
    expect(decide({ ...ok, liveness: 0.25 })).toEqual({ verdict: 'rejected', reasons: ['liveness_failed'] });
  });
});

describe('readings a document does not need are not made', () => {
  /** Runs a retired held-out case counting the OCR readings of each kind. */
  const counted = async (seed: string, index: number) => {
    const ocr = (pipeline as unknown as { ocr: OcrEngine }).ocr;
    const zone = vi.spyOn(ocr, 'readMrzRegion');
    const page = vi.spyOn(ocr, 'readPage');
    try {
      const run = await runRetiredCase(seed, index);
      return { ...run, readings: { zone: zone.mock.calls.length, page: page.mock.calls.length } };
    } finally {
      zone.mockRestore();
      page.mockRestore();
    }
  };

  it('a printed card whose front shows the zone reader two fillers but no run of four is not read for a zone a line higher or as taken', async () => {
    // Retired held-out case b41d/15: an identity card without any MRZ. Its bottom reads "<<4<<1"
    // among junk; the band raised and the picture as taken would read it twice more (5 zone readings).
    const { c, r, readings } = await counted('heldout-b41d', 15);
    expect(c.cls).toBe('genuine_id_card_printed');
    expect(r).toMatchObject({ verdict: 'approved', reasons: [] });
    expect(readings.zone).toBeLessThanOrEqual(3);
  }, 120_000);

  it("another given name typed for a card whose zone reads right: the page that prints the zone's own name ends the check", async () => {
    // Retired held-out case b41d/130: a TD1 card of Ángela Zuzana Mac Giolla, "Mei Øydis Mac Giolla"
    // typed. The first page reading prints MAC GIOLLA ANGELA ZUZANA, as the zone does; before, a
    // name that is not the typed one read 4-6 pages looking for a misread zone.
    const { c, r, readings } = await counted('heldout-b41d', 130);
    expect(c.cls).toBe('other_name');
    expect(r.verdict).toBe('rejected');
    expect(r.reasons).toContain('name_mismatch');
    expect(readings.page).toBeLessThanOrEqual(2);
  }, 120_000);
});

describe('a passport smaller in the frame', () => {
  const onDesk = async () => {
    const page = await sharp(await passport())
      .resize(900)
      .toBuffer();
    return sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#5d4a3a' } })
      .composite([{ input: page, left: 380, top: 60 }])
      .rotate(6, { background: '#5d4a3a' })
      .jpeg({ quality: 85 })
      .toBuffer();
  };
  it('filling about half of a desk photo, turned 6 degrees: the MRZ band is found and read', async () => {
    const r = await run('Ana Lucía Martínez García', await onDesk(), await astronautSelfie());
    expect(r.scores.document_ocr).toBe(1);
    expect(r.fieldsExtracted.documentNumber).toBe('PAB123456');
  }, 120_000);

  it('alone on the machine, its printed page is read ahead once the bottom shows no zone; that reading failing, unawaited, harms nothing', async () => {
    // The zone is found in its band: the page read ahead is never awaited. A rejection nobody
    // handles ends a pipeline child (child-host.ts), and the verification on it with it.
    const ocr = (pipeline as unknown as { ocr: OcrEngine }).ocr;
    const page = vi.spyOn(ocr, 'readPage').mockRejectedValue(new Error('text engine gone'));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const r = await pipeline.run(
        verification('Ana Lucía Martínez García'),
        { docFront: await onDesk(), docBack: null, selfie: await astronautSelfie(), liveness: null },
        { alone: true },
      );
      expect(r.fieldsExtracted.documentNumber).toBe('PAB123456');
      await expect.poll(() => page.mock.calls.length, { timeout: 10_000 }).toBeGreaterThan(0);
      await new Promise((res) => setTimeout(res, 100));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      page.mockRestore();
    }
  }, 120_000);
});

describe('documents without an MRZ: printed fields by their labels', () => {
  it('an identity card printed on the front only: fullName and nationality read from the labels, name matched by surname', async () => {
    const card = await passportPage({
      surname: 'ØDEGÅRD',
      givenNames: 'INGRID SOFIE',
      documentNumber: 'NO1234567',
      nationality: 'NOR',
      dateOfBirth: '03 07 1991',
      expiryDate: '14 05 2031',
      mrz: [],
      portrait: path.join(fixtures, 'astronaut.png'),
    });
    const selfie = await astronautSelfie();
    const genuine = await run('Ingrid Sofie Ødegård', card, selfie);
    expect(genuine.fieldsExtracted).toMatchObject({ fullName: 'INGRID SOFIE ODEGARD', nationality: 'NOR', expiryDate: '2031-05-14' });
    expect(genuine.verdict).toBe('approved');
    const otherSurname = await run('Ingrid Sofie Haddad', card, selfie);
    expect(otherSurname.verdict).not.toBe('approved');
    expect(otherSurname.reasons).toContain('name_mismatch');
  }, 120_000);
});

describe('a card under perspective', () => {
  // Seen from low and to the right: the top edge falls 9 degrees, the bottom 1, the right side is
  // shorter. The portrait is cropped tight with the labels and values 16 px beside it: levelled as
  // a whole, the portrait's edges lean and the blank over it takes the fields' first letters.
  const tiltedCard = async () =>
    photographInPerspective(
      await cardPixels({
        lines: ['Surname', 'LINDQVIST', 'Given names', 'ANNA MARIA', 'Date of birth', '03.07.1986', 'Date of expiry', '12.04.2031'],
        x: PORTRAIT.left + PORTRAIT.width + 16,
        top: 130,
        pitch: 40,
        labelSize: 17,
        valueSize: 30,
        crop: { left: 60, top: 20, width: 400, height: 520 },
      }),
      [
        [260, 300],
        [1350, 470],
        [1310, 1010],
        [220, 990],
      ],
      sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#5a6b7d' } }),
    );

  it('a printed card whose portrait is cropped tight: squared up by its edges, its name and dates are read and it is approved', async () => {
    const r = await pipeline.run(
      { submittedFullName: 'Anna Maria Lindqvist', documentType: 'national_id', country: null },
      { docFront: await tiltedCard(), docBack: null, selfie: await hopperSelfie(), liveness: null },
    );
    expect(r.fieldsExtracted).toMatchObject({ fullName: 'ANNA MARIA LINDQVIST', dateOfBirth: '1986-07-03', expiryDate: '2031-04-12' });
    expect(r.verdict).toBe('approved');
  }, 120_000);

  it('a passport page seen from low and to the left, the lines of its zone converging: squared up by its edges, the MRZ is read', async () => {
    const rgba = await sharp(await passport())
      .ensureAlpha()
      .raw()
      .toBuffer();
    const photo = await photographInPerspective(
      rgba,
      [
        [200, 350],
        [1400, 200],
        [1350, 1100],
        [250, 950],
      ],
      sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#3d3b38' } }),
      { width: 1250, height: 880 },
    );
    const r = await run('Ana Lucía Martínez García', photo, await astronautSelfie());
    // Only the zone gives document_ocr 1 (its check digits held).
    expect(r.scores.document_ocr).toBe(1);
    expect(r.fieldsExtracted).toMatchObject({ documentNumber: 'PAB123456', dateOfBirth: '1990-02-28', expiryDate: '2031-05-14' });
    expect(r.verdict).toBe('approved');
  }, 120_000);

  it('where readings of a card differ by a letter its recogniser misreads (J read I), the typed name is compared as read, and passes', async () => {
    // Tuning seed tune-b7e2/110, a TD1 card's printed front: squared up it read WOICIK, on its
    // block WOJCIK; the squared-up reading had sent the genuine user to review. The name reported
    // is the one the readings settle on; the score takes J read I for the typed J.
    const { c, r } = await runRetiredCase('tune-b7e2', 110);
    expect(c.cls).toBe('genuine_id_card_td1');
    expect(['ZUZANA ILSE WOJCIK', 'ZUZANA ILSE WOICIK']).toContain(r.fieldsExtracted.fullName);
    expect(r.verdict).toBe('approved');
  }, 120_000);
});
