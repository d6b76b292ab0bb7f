import sharp from 'sharp';
import { face, specimenPassport, type PassportHolder } from './synthetic-documents.js';

/**
 * The smoke set (the evaluation set before issue 9; the evaluation set proper is eval-set.ts): clean,
 * centred passport pages, for tests that need a case any working pipeline approves. Built from the public-domain faces in fixtures/faces and synthetic
 * documents rendered with sharp. Every name, number and date is invented. Two identities, so
 * mismatches can be made; "same person" pairs come from one photograph each (re-cropped,
 * re-lit, recompressed), which says nothing about matching across sessions.
 */
export type SmokeClass =
  | 'genuine'
  | 'genuine_distorted'
  | 'name_variant'
  | 'name_mismatch'
  | 'face_mismatch'
  | 'no_face_selfie'
  | 'expired'
  | 'blurry_document'
  | 'dark_document';

export interface SmokeCase {
  id: string;
  cls: SmokeClass;
  typedName: string;
  docFront: Buffer;
  selfie: Buffer;
  /** Verdicts that count as correct for this class. */
  expected: ('approved' | 'review' | 'rejected')[];
}

interface Identity extends PassportHolder {
  typed: string[];
}

const PEOPLE: Identity[] = [
  {
    surname: 'MARTÍNEZ GARCÍA',
    givenNames: 'ANA LUCÍA',
    mrzSurname: 'MARTINEZ GARCIA',
    mrzGiven: 'ANA LUCIA',
    state: 'ESP',
    number: 'PAB123456',
    birth: '900228',
    portrait: face('astronaut.png'),
    typed: ['Ana Lucía Martínez García', 'ana lucia martinez garcia', 'Martínez García Ana Lucía', 'Ana Martínez García'],
  },
  {
    surname: 'MÜLLER',
    givenNames: 'BRÜNHILDE JOSÉPHINE',
    mrzSurname: 'MUELLER',
    mrzGiven: 'BRUENHILDE JOSEPHINE',
    state: 'D',
    number: 'C01X00T47',
    birth: '520914',
    portrait: face('grace_hopper.jpg'),
    typed: ['Brünhilde Joséphine Müller', 'BRUNHILDE JOSEPHINE MULLER', 'Müller Brünhilde Joséphine', 'Brünhilde Müller'],
  },
];

/** A selfie from the person's one photograph: cropped, re-lit and recompressed differently per variant. */
async function selfieOf(p: Identity, variant: number): Promise<Buffer> {
  const meta = await sharp(p.portrait).metadata();
  const size = Math.min(meta.width!, meta.height!) - 40 - 10 * variant;
  return sharp(p.portrait)
    .extract({ left: 10 + 5 * variant, top: 5 * variant, width: size, height: size })
    .resize(720)
    .modulate({ brightness: 0.9 + 0.07 * variant, saturation: 1 - 0.1 * variant })
    .jpeg({ quality: 88 - 6 * variant })
    .toBuffer();
}

/** Photo-like distortions of a document: slight rotation, noise, recompression, softness. */
async function distort(doc: Buffer, variant: number): Promise<Buffer> {
  const base = sharp(doc).rotate(variant % 2 ? 2 : -1.5, { background: '#5a4a3a' });
  const { data, info } = await base.raw().toBuffer({ resolveWithObject: true });
  let seed = 7 + variant;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = Math.max(0, Math.min(255, data[i]! + ((seed % 17) - 8)));
  }
  return sharp(data, { raw: info })
    .blur(0.6 + 0.2 * variant)
    .jpeg({ quality: 70 - 5 * variant })
    .toBuffer();
}

async function noFaceSelfie(variant: number): Promise<Buffer> {
  const boxes = Array.from(
    { length: 48 },
    (_, i) =>
      `<rect x="${(i % 8) * 90 + 6}" y="${Math.floor(i / 8) * 120 + 6}" width="80" height="110" fill="hsl(${(i * 37 + variant * 50) % 360},55%,${40 + (i % 3) * 10}%)"/>`,
  ).join('');
  return sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="720" height="720"><rect width="100%" height="100%" fill="#333"/>${boxes}</svg>`,
    ),
  )
    .jpeg()
    .toBuffer();
}

export async function buildSmokeSet(): Promise<SmokeCase[]> {
  const cases: SmokeCase[] = [];
  for (const [pi, p] of PEOPLE.entries()) {
    const other = PEOPLE[1 - pi]!;
    const doc = await specimenPassport(p);
    const id = (cls: string, n: number) => `${cls}-${pi + 1}-${n}`;
    for (let v = 0; v < 2; v++)
      cases.push({
        id: id('genuine', v),
        cls: 'genuine',
        typedName: p.typed[0]!,
        docFront: doc,
        selfie: await selfieOf(p, v),
        expected: ['approved'],
      });
    for (let v = 0; v < 2; v++)
      cases.push({
        id: id('genuine_distorted', v),
        cls: 'genuine_distorted',
        typedName: p.typed[0]!,
        docFront: await distort(doc, v),
        selfie: await selfieOf(p, v + 1),
        expected: ['approved'],
      });
    for (let v = 1; v < p.typed.length; v++)
      cases.push({
        id: id('name_variant', v),
        cls: 'name_variant',
        typedName: p.typed[v]!,
        docFront: doc,
        selfie: await selfieOf(p, 2),
        expected: ['approved'],
      });
    cases.push({
      id: id('name_mismatch', 0),
      cls: 'name_mismatch',
      typedName: other.typed[0]!,
      docFront: doc,
      selfie: await selfieOf(p, 0),
      expected: ['rejected'],
    });
    cases.push({
      id: id('face_mismatch', 0),
      cls: 'face_mismatch',
      typedName: p.typed[0]!,
      docFront: doc,
      selfie: await selfieOf(other, 1),
      expected: ['rejected'],
    });
    cases.push({
      id: id('no_face_selfie', 0),
      cls: 'no_face_selfie',
      typedName: p.typed[0]!,
      docFront: doc,
      selfie: await noFaceSelfie(pi),
      expected: ['rejected'],
    });
    cases.push({
      id: id('expired', 0),
      cls: 'expired',
      typedName: p.typed[0]!,
      docFront: await specimenPassport(p, '240301'),
      selfie: await selfieOf(p, 1),
      expected: ['rejected'],
    });
    cases.push({
      id: id('blurry_document', 0),
      cls: 'blurry_document',
      typedName: p.typed[0]!,
      docFront: await sharp(doc).blur(5).jpeg().toBuffer(),
      selfie: await selfieOf(p, 0),
      expected: ['review', 'rejected'],
    });
    cases.push({
      id: id('dark_document', 0),
      cls: 'dark_document',
      typedName: p.typed[0]!,
      docFront: await sharp(doc).linear(0.15, 0).jpeg().toBuffer(),
      selfie: await selfieOf(p, 0),
      expected: ['review', 'rejected'],
    });
  }
  return cases;
}
