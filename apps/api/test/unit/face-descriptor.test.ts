import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACES_DIR } from '@service/fixtures/synthetic-documents';
import { FaceAnalyzer } from '../../src/pipeline/read/faces/faces.js';
import { FaceDescriptor, modelFileBytes } from '../../src/pipeline/read/faces/descriptor/face-descriptor.js';
import {
  DLIB_150,
  applySimilarity,
  similarityTransform,
  type FivePoints,
  type RgbImage,
} from '../../src/pipeline/read/faces/descriptor/face-align.js';
import { fivePointsOfMesh } from '../../src/pipeline/read/faces/descriptor/mesh-points.js';
import { comparedEmbeddings, embeddingSimilarity, similarity } from '../../src/pipeline/read/faces/descriptor/compare.js';
import { cosineOfScore, faceMatchScore } from '../../src/pipeline/read/faces/descriptor/face-match-scale.js';
import { chromaSpread, greyChip } from '../../src/pipeline/read/faces/descriptor/chip-colour.js';
import { POLICY } from '../../src/pipeline/decide/policy.js';

const rgb = async (image: Buffer | string): Promise<RgbImage> => {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
};

let descriptor: FaceDescriptor;
let faces: FaceAnalyzer;
/** A fixture face's pixels and its five points from the service's own mesh. */
const found = new Map<string, { img: RgbImage; points: FivePoints }>();

beforeAll(async () => {
  [descriptor, faces] = await Promise.all([FaceDescriptor.load(), FaceAnalyzer.start()]);
  const add = async (name: string, image: Buffer | string) => {
    const img = await rgb(image);
    const mesh = await faces.mesh({ data: Buffer.from(img.data), width: img.width, height: img.height });
    if (!mesh) throw new Error(`no mesh on ${name}`);
    found.set(name, { img, points: fivePointsOfMesh(mesh.points) });
  };
  const astronaut = path.join(FACES_DIR, 'astronaut.png');
  await add('collins', astronaut);
  // The same photograph mirrored, halved and JPEG-compressed: the same person, other pixels.
  await add('collins-again', await sharp(astronaut).flop().resize(256).jpeg({ quality: 60 }).toBuffer());
  await add('hopper', path.join(FACES_DIR, 'grace_hopper.jpg'));
}, 120_000);

afterAll(async () => {
  await Promise.all([descriptor?.release(), faces?.release()]);
});

describe('FaceDescriptor (dlib ResNet built as an ONNX graph in memory, on onnxruntime)', () => {
  it('loads from the face-api package weights and gives 128 values for a chip', async () => {
    expect(modelFileBytes()).toBeGreaterThan(6_000_000);
    const chip = { data: new Uint8Array(3 * 150 * 150).fill(128), width: 150, height: 150 };
    const out = await descriptor.describeChip(chip);
    expect(out).toHaveLength(128);
    expect(out.every(Number.isFinite)).toBe(true);
  });

  it('refuses a chip of the wrong size', async () => {
    await expect(descriptor.describeChip({ data: new Uint8Array(3 * 100 * 100), width: 100, height: 100 })).rejects.toThrow(/150/);
  });

  it('scores the same person above another on the fixture faces, each side of the policy lines', async () => {
    const d = async (name: string) => Array.from(await descriptor.describe(found.get(name)!.img, found.get(name)!.points));
    const collins = await d('collins');
    const same = embeddingSimilarity(collins, await d('collins-again'));
    const other = embeddingSimilarity(collins, await d('hopper'));
    expect(same).toBeGreaterThan(POLICY.faceMatch.review);
    // Two women photographed decades apart: under the approval line, by far (0.53 on this copy).
    expect(other).toBeLessThan(POLICY.faceMatch.review - 0.1);
    expect(same).toBeGreaterThan(other + 0.3);
  });
});

describe('alignment points from the mesh', () => {
  it('puts the eyes level on the image left and right, the nose between, the mouth below', () => {
    const [le, re, nose, ml, mr] = found.get('collins')!.points;
    expect(le[0]).toBeLessThan(nose[0]);
    expect(re[0]).toBeGreaterThan(nose[0]);
    expect(Math.abs(le[1] - re[1])).toBeLessThan(0.1 * (re[0] - le[0]));
    expect(nose[1]).toBeGreaterThan(le[1]);
    expect(ml[1]).toBeGreaterThan(nose[1]);
    expect(mr[0]).toBeGreaterThan(ml[0]);
  });

  it('maps a frontal face onto dlib chip template closely (a similarity transform, small residuals)', () => {
    const { points } = found.get('collins')!;
    const s = similarityTransform(points, DLIB_150.points);
    const residual = points.map((p, i) =>
      Math.hypot(...(applySimilarity(s, p).map((v, k) => v - DLIB_150.points[i]![k]!) as [number, number])),
    );
    // Within 10 px of 150 on every point, 7 on average (8.3 and 6.0 here, the mouth's corners: the mesh's lie inside
    // dlib's landmarks): a similarity transform puts the points where dlib's template expects them.
    expect(Math.max(...residual)).toBeLessThan(10);
    expect(residual.reduce((a, b) => a + b) / 5).toBeLessThan(7);
  });
});

describe('face_match scale', () => {
  it('maps the cosine monotonically onto [0, 1], the documented points exactly', () => {
    expect(faceMatchScore(-1)).toBe(0);
    expect(faceMatchScore(1)).toBe(1);
    expect(faceMatchScore(0.94)).toBeCloseTo(0.76, 9);
    expect(faceMatchScore(0.925)).toBeCloseTo(0.7, 9);
    expect(faceMatchScore(0.85)).toBeCloseTo(0.4, 9);
    let last = -1;
    for (let c = -1; c <= 1; c += 0.001) {
      const s = faceMatchScore(c);
      expect(s).toBeGreaterThan(last);
      expect(cosineOfScore(s)).toBeCloseTo(c, 9);
      last = s;
    }
  });

  it('gives no similarity without a descriptor, and the cosine otherwise', () => {
    expect(embeddingSimilarity([], [1, 0])).toBe(0);
    expect(similarity(Float32Array.from([1, 0]), Float32Array.from([0, 3]))).toBeCloseTo(0, 9);
    expect(embeddingSimilarity([1, 0], [2, 0])).toBe(1);
  });
});

describe('colour rule', () => {
  it('compares the selfie in grey only with a portrait printed grey, and nothing without a descriptor', () => {
    const selfie = { embedding: [1, 0], greyEmbedding: [0, 1] };
    expect(comparedEmbeddings({ embedding: [1, 1], grey: false }, selfie)).toEqual([
      [1, 1],
      [1, 0],
    ]);
    expect(comparedEmbeddings({ embedding: [1, 1], grey: true }, selfie)).toEqual([
      [1, 1],
      [0, 1],
    ]);
    expect(comparedEmbeddings({ embedding: [1, 1], grey: true }, { embedding: [] })).toBeNull();
  });

  it('tells a grey chip, tinted or not, from a colour one', async () => {
    const chip = async (img: RgbImage, points: FivePoints) => {
      const { alignedCrop } = await import('../../src/pipeline/read/faces/descriptor/face-crop.js');
      return alignedCrop(img, points, DLIB_150);
    };
    const { img, points } = found.get('collins')!;
    const colour = await chip(img, points);
    const grey = greyChip(colour);
    // A warm tint over a grey print: the mean chroma moves, its spread does not.
    const tint = [14, 0, -10];
    const tinted = { ...grey, data: grey.data.map((v, i) => Math.round(40 + 0.6 * v) + tint[i % 3]!) };
    expect(chromaSpread(grey)).toBe(0);
    expect(chromaSpread(tinted)).toBeLessThan(2);
    expect(chromaSpread(colour)).toBeGreaterThan(8);
  });
});
