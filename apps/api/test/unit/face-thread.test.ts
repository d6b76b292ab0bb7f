import path from 'node:path';
import sharp from 'sharp';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCase } from '@service/fixtures/eval-set';
import { FACES_DIR, textCard } from '@service/fixtures/synthetic-documents';
import { decodeImage } from '../../src/pipeline/decode/decode.js';
import { FaceThread } from '../../src/pipeline/read/faces/face-thread.js';
import { FaceAnalyzer } from '../../src/pipeline/read/faces/faces.js';
import { POLICY } from '../../src/pipeline/decide/policy.js';

let thread: FaceThread;
let here: FaceAnalyzer;
beforeAll(async () => {
  [thread, here] = await Promise.all([FaceThread.start(), FaceAnalyzer.start()]);
}, 60_000);
afterAll(() => thread.stop());

const photo = (name: string) =>
  sharp(path.join(FACES_DIR, name))
    .jpeg()
    .toBuffer()
    .then((b) => decodeImage(b, 512));

describe('the face models on a thread of their own (FaceThread)', () => {
  it('answers as the models on the calling thread do: faces, embeddings, pose and similarity', { timeout: 60_000 }, async () => {
    const c = await buildCase('dev', 7); // a passport page
    const [front, selfie] = await Promise.all([decodeImage(c.docFront), decodeImage(c.selfie, 512)]);
    const [docT, selfieT] = await Promise.all([thread.analyseDocument(front), thread.analyse(selfie, 512)]);
    const docH = await here.analyseDocument(front);
    const selfieH = await here.analyse(selfie, 512);
    expect(docT).not.toBeNull();
    expect(selfieT).not.toBeNull();
    expect(docT).toEqual(docH);
    expect(selfieT).toEqual(selfieH);
    expect(await thread.similarity(docT!.embedding, selfieT!.embedding)).toBe(await here.similarity(docH!.embedding, selfieH!.embedding));
    // A selfie: the same face, found on the whole picture by both.
    expect(await thread.analyseSelfie(selfie)).toEqual(await here.analyseSelfie(selfie));
  });

  it('routes each answer to its call when many are in flight, pose-only calls without an embedding', async () => {
    const [astronaut, hopper, camera] = await Promise.all([photo('astronaut.png'), photo('grace_hopper.jpg'), photo('camera.png')]);
    const got = await Promise.all([
      thread.analyse(astronaut),
      thread.analyse(hopper, 512, { embedding: false }),
      thread.analyse(camera),
      thread.analyse(astronaut),
    ]);
    expect(got.every(Boolean)).toBe(true);
    expect(got[1]!.embedding).toEqual([]);
    expect(got[0]).toEqual(got[3]);
    expect(got[0]).toEqual(await here.analyse(astronaut));
    expect(await thread.similarity(got[0]!.embedding, got[2]!.embedding)).toBeLessThan(POLICY.faceMatch.review);
  });

  it(
    'searches a document photo tile by tile only when told so, a decision that may come while the whole picture is analysed',
    { timeout: 60_000 },
    async () => {
      // A grey 260 px portrait on a card in the corner of a 3000 x 2250 photo: found on tiles only.
      const portrait = await sharp(path.join(FACES_DIR, 'grace_hopper.jpg')).resize(260).greyscale().png().toBuffer();
      const card = await sharp(await textCard(800, 500))
        .composite([{ input: portrait, left: 40, top: 60 }])
        .png()
        .toBuffer();
      const front = await decodeImage(
        await sharp({ create: { width: 3000, height: 2250, channels: 3, background: '#6b5d52' } })
          .composite([{ input: card, left: 2100, top: 1600 }])
          .jpeg({ quality: 85 })
          .toBuffer(),
      );
      const later = (search: boolean) => new Promise<boolean>((resolve) => setTimeout(() => resolve(search), 50));
      const [notSearched, searched, byDefault] = await Promise.all([
        thread.analyseDocument(front, { searchTiles: later(false) }),
        thread.analyseDocument(front, { searchTiles: later(true) }),
        thread.analyseDocument(front),
      ]);
      expect(notSearched).toBeNull();
      expect(searched).not.toBeNull();
      expect(searched!.box[0] * 3000).toBeGreaterThan(2130);
      expect(byDefault).toEqual(searched);
      // A decision that fails searches, as without one.
      expect(await thread.analyseDocument(front, { searchTiles: Promise.reject(new Error('no quality')) })).toEqual(searched);
      expect(await here.analyseDocument(front, { searchTiles: false })).toBeNull();
    },
  );

  it('a thread that dies fails the calls it held and is started again for the next', { timeout: 60_000 }, async () => {
    const astronaut = await photo('astronaut.png');
    const held = thread.analyse(astronaut);
    await (thread as unknown as { worker: Worker }).worker.terminate();
    await expect(held).rejects.toThrow(/face thread exited/);
    const again = await thread.analyse(astronaut);
    expect(again?.embedding).toHaveLength(128);
  });

  it('after stop, calls fail instead of waiting', async () => {
    const other = await FaceThread.start();
    await other.stop();
    await expect(other.analyse(await photo('astronaut.png'))).rejects.toThrow(/stopped/);
  });
});
