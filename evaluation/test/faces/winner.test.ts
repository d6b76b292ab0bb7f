import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { FaceFinder, readRgb } from '../../src/faces/find-face.js';
import { DLIB_150, type FivePoints, type RgbImage } from '@service/api/pipeline/read/faces/descriptor/face-align';
import { alignedCrop } from '@service/api/pipeline/read/faces/descriptor/face-crop';
import {
  chipTensor,
  FaceDescriptor,
  faceApiModelDir,
  modelFileBytes,
  similarity,
} from '@service/api/pipeline/read/faces/descriptor/face-descriptor';

const require = createRequire(import.meta.url);
const FIXTURES = path.join(path.dirname(require.resolve('@service/fixtures/random')), '..', 'faces');

interface FaceApi {
  tf: {
    setBackend(b: string): Promise<boolean>;
    ready(): Promise<void>;
    tensor3d(v: Float32Array, s: [number, number, number], d: 'float32'): { dispose(): void };
  };
  nets: { faceRecognitionNet: { loadFromDisk(dir: string): Promise<void>; computeFaceDescriptor(t: unknown): Promise<Float32Array> } };
}

let descriptor: FaceDescriptor;
let finder: FaceFinder;
const faces = new Map<string, { img: RgbImage; points: FivePoints }>();

async function face(name: string, image: Buffer | string) {
  const img = await readRgb(image);
  const found = await finder.find(img);
  if (!found) throw new Error(`no face found on ${name}`);
  faces.set(name, { img, points: found.points });
}

beforeAll(async () => {
  descriptor = await FaceDescriptor.load();
  finder = await FaceFinder.start();
  await face('collins', path.join(FIXTURES, 'astronaut.png'));
  await face('hopper', path.join(FIXTURES, 'grace_hopper.jpg'));
  // The same photograph mirrored, halved and JPEG-compressed: the same person, other pixels.
  await face('collins-again', await sharp(path.join(FIXTURES, 'astronaut.png')).flop().resize(256).jpeg({ quality: 60 }).toBuffer());
});

describe('FaceDescriptor (dlib ResNet on onnxruntime)', () => {
  it('gives the values face-api computes on its own tfjs for the same chip', async () => {
    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
    await faceapi.tf.setBackend('wasm');
    await faceapi.tf.ready();
    await faceapi.nets.faceRecognitionNet.loadFromDisk(faceApiModelDir());
    for (const name of ['collins', 'hopper']) {
      const { img, points } = faces.get(name)!;
      const chip = await alignedCrop(img, points, DLIB_150);
      const ours = await descriptor.describeChip(chip);
      const t = faceapi.tf.tensor3d(Float32Array.from(chip.data), [150, 150, 3], 'float32');
      const theirs = await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(t);
      t.dispose();
      expect(ours).toHaveLength(128);
      for (let i = 0; i < 128; i++) expect(Math.abs(ours[i]! - theirs[i]!)).toBeLessThan(1e-4);
    }
  });

  it('scores the same person above another', async () => {
    const d = async (name: string) => descriptor.describe(faces.get(name)!.img, faces.get(name)!.points);
    const collins = await d('collins');
    const same = similarity(collins, await d('collins-again'));
    const other = similarity(collins, await d('hopper'));
    expect(same).toBeGreaterThan(other + 0.03);
    expect(same).toBeGreaterThan(0.95);
  });

  it('refuses a chip of the wrong size', async () => {
    await expect(descriptor.describeChip({ data: new Uint8Array(3 * 100 * 100), width: 100, height: 100 })).rejects.toThrow(/150/);
  });
});

describe('chipTensor and similarity', () => {
  it('lays interleaved RGB out as NCHW planes', () => {
    const chip = { data: Uint8Array.from([1, 2, 3, 4, 5, 6]), width: 2, height: 1 };
    expect(Array.from(chipTensor(chip))).toEqual([1, 4, 2, 5, 3, 6]);
  });

  it('is the cosine of the angle between descriptors', () => {
    expect(similarity(Float32Array.from([1, 0]), Float32Array.from([2, 0]))).toBeCloseTo(1, 9);
    expect(similarity(Float32Array.from([1, 0]), Float32Array.from([0, 3]))).toBeCloseTo(0, 9);
    expect(() => similarity(Float32Array.from([1]), Float32Array.from([1, 2]))).toThrow();
  });

  it('reads the model files from the face-api package', () => {
    expect(modelFileBytes()).toBeGreaterThan(6_000_000);
  });
});
