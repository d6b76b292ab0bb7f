import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/pipeline/decode/decode.js';
import { FaceAnalyzer } from '../../src/pipeline/read/faces/faces.js';
import { FACES_DIR, textCard } from '@service/fixtures/synthetic-documents';
import { buildCase } from '@service/fixtures/eval-set';
import { POLICY } from '../../src/pipeline/decide/policy.js';
import { comparedEmbeddings } from '../../src/pipeline/read/faces/descriptor/compare.js';
import { checkSetPhoto } from '../helpers/check-set.js';

const fixtures = FACES_DIR;
let faces: FaceAnalyzer;
beforeAll(async () => {
  faces = await FaceAnalyzer.start();
}, 60_000);

describe('face analysis (human on tfjs WASM, models from npm packages)', () => {
  it('finds a face with an embedding and a near-frontal pose', async () => {
    const f = await faces.analyse(await sharp(path.join(fixtures, 'astronaut.png')).jpeg().toBuffer());
    expect(f).not.toBeNull();
    expect(f!.score).toBeGreaterThan(0.8);
    expect(f!.embedding).toHaveLength(128);
    expect(Math.abs(f!.yaw)).toBeLessThan(15);
  });

  it('finds no face in a page of text', async () => {
    expect(await faces.analyse(await textCard())).toBeNull();
  });

  it('the same person (a re-cropped, darker copy) is approved; two people are not', async () => {
    const astronaut = await sharp(path.join(fixtures, 'astronaut.png')).jpeg().toBuffer();
    const copy = await sharp(astronaut)
      .extract({ left: 60, top: 0, width: 360, height: 360 })
      .resize(420)
      .modulate({ brightness: 0.8 })
      .jpeg({ quality: 70 })
      .toBuffer();
    const hopper = await sharp(path.join(fixtures, 'grace_hopper.jpg')).jpeg().toBuffer();
    const [a, b, c] = await Promise.all([faces.analyse(astronaut), faces.analyse(copy), faces.analyse(hopper)]);
    const same = await faces.similarity(a!.embedding, b!.embedding);
    const other = await faces.similarity(a!.embedding, c!.embedding);
    expect(same).toBeGreaterThan(POLICY.faceMatch.review);
    // Two women photographed decades apart: cosine 0.89, sent to a person (0.554 on the 0-1 scale).
    expect(other).toBeLessThan(POLICY.faceMatch.review);
  });

  it('reads a head turn: a turned face has a large yaw, and mirroring flips its sign', async () => {
    const turned = await sharp(path.join(fixtures, 'camera.png')).jpeg().toBuffer();
    const frontal = await faces.analyse(await sharp(path.join(fixtures, 'astronaut.png')).jpeg().toBuffer());
    const f = await faces.analyse(turned);
    const mirrored = await faces.analyse(await sharp(turned).flop().jpeg().toBuffer());
    expect(f && mirrored && frontal).toBeTruthy();
    expect(Math.abs(f!.yaw)).toBeGreaterThan(Math.abs(frontal!.yaw) + 15);
    // A front camera's preview is mirrored: the same turn reads with the opposite sign.
    expect(Math.sign(mirrored!.yaw)).toBe(-Math.sign(f!.yaw));
    expect(Math.abs(Math.abs(mirrored!.yaw) - Math.abs(f!.yaw))).toBeLessThan(10);
  });
  it('finds a small printed portrait on a large document photo, its box relative to the whole photo, and matches it', async () => {
    // A grey 260 px portrait on a card in the corner of a 3000 x 2250 photo: the face is about
    // 3% of the photo's width, too small for the detector on the whole picture at 256 px.
    const portrait = await sharp(path.join(fixtures, 'grace_hopper.jpg')).resize(260).greyscale().png().toBuffer();
    const card = await sharp(await textCard(800, 500))
      .composite([{ input: portrait, left: 40, top: 60 }])
      .png()
      .toBuffer();
    const photo = await sharp({ create: { width: 3000, height: 2250, channels: 3, background: '#6b5d52' } })
      .composite([{ input: card, left: 2100, top: 1600 }])
      .jpeg({ quality: 85 })
      .toBuffer();
    const doc = await faces.analyseDocument(await decodeImage(photo));
    expect(doc).not.toBeNull();
    const [x, y, w] = doc!.box;
    // The face lies inside the portrait: x 2140-2400 px, y 1660-1965 px of the photo.
    expect(x * 3000).toBeGreaterThan(2130);
    expect((x + w) * 3000).toBeLessThan(2410);
    expect(y * 2250).toBeGreaterThan(1650);
    const selfie = await faces.analyse(await sharp(path.join(fixtures, 'grace_hopper.jpg')).jpeg().toBuffer());
    const other = await faces.analyse(await sharp(path.join(fixtures, 'astronaut.png')).jpeg().toBuffer());
    expect(await faces.similarity(doc!.embedding, selfie!.embedding)).toBeGreaterThan(0.6);
    expect(await faces.similarity(doc!.embedding, other!.embedding)).toBeLessThan(POLICY.faceMatch.review);
  });

  it.each([
    [183, 'a grey portrait on a card in the corner of a tall 1080 x 1920 photo'],
    [20, 'a portrait 4% of a 3024 x 4032 photo wide, a reflection on its face'],
    [561, 'a helmet beside the portrait that the detector finds more surely than the face on its tile'],
  ])('finds the portrait on the dev split case %i: %s', { timeout: 60_000 }, async (index) => {
    const c = await buildCase('dev', index);
    const doc = await faces.analyseDocument(await decodeImage(c.docFront));
    expect(doc).not.toBeNull();
    const selfie = await faces.analyse(c.selfie);
    expect(await faces.similarity(...comparedEmbeddings(doc!, selfie!)!)).toBeGreaterThan(POLICY.faceMatch.reject);
  });

  it.each([
    [172, 'heldout-851e', 'a woven backdrop whose thirds hold "faces" that are none, hiding a 97 px portrait on a tall 720 x 1280 photo'],
    [290, 'heldout-851e', 'a face of 75 px that the detector finds and the full analysis misses until its square is enlarged'],
    [59, 'heldout-f4cc', "an astronaut's chest patch, located on the whole passport page, that analyses as a face only unsurely"],
  ])('finds the portrait on the retired held-out case %i of %s: %s', { timeout: 60_000 }, async (index, seed) => {
    const c = await buildCase('heldout', index, seed);
    const doc = await faces.analyseDocument(await decodeImage(c.docFront));
    expect(doc).not.toBeNull();
    const selfie = await faces.analyse(c.selfie);
    expect(await faces.similarity(...comparedEmbeddings(doc!, selfie!)!)).toBeGreaterThan(POLICY.faceMatch.reject);
  });

  it('finds on squares of a selfie a turned face that the whole landscape frame hides from the detector', { timeout: 60_000 }, async () => {
    // Dev case 27: someone else's selfie, a profile behind a camcorder filling 36% of a 1280 x 720 frame.
    const c = await buildCase('dev', 27);
    const selfie = await decodeImage(c.selfie, 1024);
    expect(await faces.analyse(selfie, 512)).toBeNull();
    const face = await faces.analyseSelfie(selfie);
    expect(face).not.toBeNull();
    expect(face!.embedding).toHaveLength(128);
    const [x, y, w, h] = face!.box;
    // Its box is relative to the whole frame, and lies in it.
    expect(x).toBeGreaterThan(0.25);
    expect(x + w).toBeLessThan(0.8);
    expect(y).toBeGreaterThan(0);
    expect(y + h).toBeLessThan(1);
  });

  it('takes a profile reaching past the side of a portrait frame, found on a square', { timeout: 60_000 }, async () => {
    // Retired held-out case ec15/155: someone else's selfie, a cameraman in profile at the right
    // edge of a 720 x 1280 frame; his face reaches about a fifth of its width past the edge.
    const c = await buildCase('heldout', 155, 'heldout-ec15');
    const face = await faces.analyseSelfie(await decodeImage(c.selfie, 1024));
    expect(face).not.toBeNull();
    const [x, y, w, h] = face!.box;
    expect(x + w).toBeGreaterThan(1);
    expect(x + w).toBeLessThanOrEqual(1 + 0.25 * w);
    expect(y).toBeGreaterThanOrEqual(0);
    expect(y + h).toBeLessThanOrEqual(1);
  });

  it(
    'takes a face cut by the edge of a selfie aimed at the chest for a face at the edge, never a face well inside',
    { timeout: 60_000 },
    async () => {
      // Dev case 291: the camera aimed below the face, whose lower half is at the top of the frame;
      // squares of the frame show it to the detector, cut by the frame's top edge.
      const c = await buildCase('dev', 291);
      const face = await faces.analyseSelfie(await decodeImage(c.selfie, 1024));
      expect(face?.atFrameEdge ?? true).toBe(true);
    },
  );

  it('finds a face framed high (eyes at a ninth of the height, the hair cut) as a face at the edge', { timeout: 60_000 }, async () => {
    // A laptop's camera below the face: the astronaut's photo 576 px tall in a 640 x 480 frame,
    // 75 px above its top edge, her eyes about 40 px down (0.083, under `FRAMED_HIGH_EYES`: at 0.09
    // or more, so large a face is in frame). Such selfies had been rejected as no face.
    const photo = await sharp(path.join(fixtures, 'astronaut.png')).resize(576, 576).toBuffer();
    const frame = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c8c2b8' } })
      .composite([{ input: await sharp(photo).extract({ left: 0, top: 75, width: 576, height: 480 }).toBuffer(), left: 32, top: 0 }])
      .jpeg({ quality: 90 })
      .toBuffer();
    const face = await faces.analyseSelfie(await decodeImage(frame, 1024));
    expect(face).not.toBeNull();
    expect(face!.atFrameEdge).toBe(true);
    expect(face!.eyes).toBeLessThan(0.15);
    // The same photo framed lower is a face well inside the frame.
    const lower = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c8c2b8' } })
      .composite([{ input: await sharp(photo).extract({ left: 0, top: 0, width: 576, height: 480 }).toBuffer(), left: 32, top: 0 }])
      .jpeg({ quality: 90 })
      .toBuffer();
    const inside = await faces.analyseSelfie(await decodeImage(lower, 1024));
    expect(inside?.atFrameEdge).toBeUndefined();
    expect(inside!.eyes).toBeGreaterThan(0.15);
  });

  it(
    'finds a face framed higher still (eyes at a sixteenth of the height) as a face at the edge; one cut at the eyes as none',
    { timeout: 60_000 },
    async () => {
      // Check set seventeenth/x057: a sure face whose eyes lay at 0.076 of the frame had been
      // rejected as no face. The astronaut's photo 85 px above the frame's top: eyes at about 0.06.
      const photo = await sharp(path.join(fixtures, 'astronaut.png')).resize(576, 576).toBuffer();
      const framed = async (top: number) =>
        faces.analyseSelfie(
          await decodeImage(
            await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c8c2b8' } })
              .composite([{ input: await sharp(photo).extract({ left: 0, top, width: 576, height: 480 }).toBuffer(), left: 32, top: 0 }])
              .jpeg({ quality: 90 })
              .toBuffer(),
            1024,
          ),
        );
      const high = await framed(85);
      expect(high).not.toBeNull();
      expect(high!.atFrameEdge).toBe(true);
      expect(high!.eyes).toBeLessThan(0.08);
      // 96 px above: the frame's top runs through the eyes, no face to judge.
      expect(await framed(96)).toBeNull();
    },
  );

  it('finds "a face" in a selfie of a spacesuit without its face only under the line the policy trusts', { timeout: 60_000 }, async () => {
    // Retired held-out case dcdf/256: a 3000 x 4000 selfie of the suit below the face, out of the
    // frame; a glove and a patch are found at 0.4, and had matched the suit on the portrait at 0.45.
    const c = await buildCase('heldout', 256, 'heldout-dcdf');
    const found = await faces.analyseSelfie(await decodeImage(c.selfie, 1024));
    expect(found?.score ?? 0).toBeLessThan(POLICY.selfieFace.minConfidence);
    // The same person's selfie with her face in it is found surely.
    const genuine = await buildCase('dev', 7);
    expect((await faces.analyseSelfie(await decodeImage(genuine.selfie, 1024)))!.score).toBeGreaterThanOrEqual(0.9);
  });

  it.each([
    // dlib's descriptor: the same person at 0.44 (cosine 0.861) and 0.53, reviewed, not rejected;
    // another person at 0.63 (cosine 0.908), reviewed, not approved.
    [179, 'the same person, her face three quarters of a 720 x 1280 frame', POLICY.faceMatch.reject, Infinity, 0.5],
    [29, 'the same person, her face filling a 720 x 1280 frame, against a grey portrait', POLICY.faceMatch.reject, Infinity, 0.5],
    [258, 'another person, close to a 1280 x 720 camera', -Infinity, POLICY.faceMatch.review, 0.2],
  ])(
    'analyses a close selfie with margins around it (retired held-out 1e4e/%i: %s)',
    { timeout: 60_000 },
    async (index, _what, above, below, minWidth) => {
      // On the bare frame the models' crop around a face this large is clipped: 0.40 and 0.42 for
      // the same person, 0.46 for another.
      const c = await buildCase('heldout', index, 'heldout-1e4e');
      const doc = await faces.analyseDocument(await decodeImage(c.docFront));
      const face = await faces.analyseSelfie(await decodeImage(c.selfie, 1024));
      const similarity = await faces.similarity(...comparedEmbeddings(doc!, face!)!);
      expect(similarity).toBeGreaterThan(above);
      expect(similarity).toBeLessThan(below);
      // The box is relative to the frame itself, not to the canvas with margins: the face is large in it.
      const [x, y, w, h] = face!.box;
      expect(w).toBeGreaterThan(minWidth);
      expect(x + w / 2).toBeGreaterThan(0.25);
      expect(x + w / 2).toBeLessThan(0.75);
      expect(y).toBeGreaterThanOrEqual(-0.25 * h);
      expect(y + h).toBeLessThanOrEqual(1 + 0.25 * h);
      expect(face!.eyes).toBeGreaterThan(0.15);
    },
  );

  it('looks again, on other margins, at a close face the models boxed far wider than the frame', { timeout: 60_000 }, async () => {
    // Hopper's face as the check set frames a phone held close (scripts/cross-check-set.mjs): her
    // head 1,280 px tall, turned 5 degrees, its sides cut by a 720 x 1280 frame. On the usual
    // margins the models box it 2.4 frames wide and match it to her own photo at 0.45 (check set
    // seventh: four such genuine users sent to review, 0.40-0.51).
    const h = 1280;
    const w = Math.round((h * 512) / 600);
    const head = await sharp(path.join(fixtures, 'grace_hopper.jpg'))
      .extract({ left: 120, top: 30, width: 270, height: 360 })
      .resize(w, h)
      .rotate(-5, { background: '#8d877d' })
      .toBuffer();
    const turned = await sharp(head).metadata();
    const frame = await sharp(head)
      .extract({ left: Math.round((turned.width! - 720) / 2), top: 0, width: 720, height: 1280 })
      .jpeg({ quality: 85 })
      .toBuffer();
    const portrait = await faces.analyse(await sharp(path.join(fixtures, 'grace_hopper.jpg')).jpeg().toBuffer());
    const face = await faces.analyseSelfie(await decodeImage(frame, 1024));
    expect(face).not.toBeNull();
    expect(face!.box[2]).toBeLessThanOrEqual(1.3);
    expect(await faces.similarity(portrait!.embedding, face!.embedding)).toBeGreaterThan(POLICY.faceMatch.review + 0.15);
  });

  it(
    'takes a portrait photo fitted to a webcam frame for a face framed high and close; a close face boxed taller than the frame for a face',
    { timeout: 60_000 },
    async () => {
      // Each fixture photo fitted to a landscape frame as CSS's `object-fit: cover` fits it: scaled to
      // the frame's width, its top and bottom cropped equally.
      const covered = async (file: string, width: number, height: number) =>
        faces.analyseSelfie(
          await decodeImage(
            await sharp(path.join(fixtures, file)).resize(width, height, { fit: 'cover' }).jpeg({ quality: 85 }).toBuffer(),
            1024,
          ),
        );
      const own = async (file: string) => (await faces.analyse(await sharp(path.join(fixtures, file)).jpeg().toBuffer()))!.embedding;
      // Collins at 640 x 480: her eyes at a tenth of the height, her hair cut, her face 0.43 of it
      // (sent to review as a face at the frame's edge).
      const collins = await covered('astronaut.png', 640, 480);
      expect(collins!.eyes).toBeLessThan(0.15);
      expect(collins!.framedHigh).toBe(true);
      expect(collins!.atFrameEdge).toBeUndefined();
      expect(await faces.similarity(await own('astronaut.png'), collins!.embedding)).toBeGreaterThan(POLICY.selfieFace.confirmMatch);
      // Hopper at 1280 x 720: her face fills the frame from her brow to her chin, and the models box
      // it far taller than the frame on the usual margins (she was rejected: no face).
      const hopper = await covered('grace_hopper.jpg', 1280, 720);
      expect(hopper).not.toBeNull();
      expect(hopper!.box[3]).toBeLessThan(1);
      expect(await faces.similarity(await own('grace_hopper.jpg'), hopper!.embedding)).toBeGreaterThan(POLICY.faceMatch.review);
    },
  );

  it('keeps the face itself, not a part of it boxed less surely, for a face wider than the frame', { timeout: 60_000 }, async () => {
    // Check set nineteenth/x037 (test/fixtures/check-set): Hopper held close in a 720 x 1280
    // frame. Boxed 1.77 and 1.43 frames wide at 1.0; on the widest margins the detector boxes her
    // glasses and an eye, 0.47 wide at 0.78, which matched her own photo at 0.18 (rejected).
    const selfie = checkSetPhoto('nineteenth-x037', 'selfie');
    const portrait = await faces.analyse(await sharp(path.join(fixtures, 'grace_hopper.jpg')).jpeg().toBuffer());
    const face = await faces.analyseSelfie(await decodeImage(selfie, 1024));
    expect(face!.score).toBeGreaterThan(0.95);
    expect(face!.box[2]).toBeGreaterThan(1);
    expect(await faces.similarity(portrait!.embedding, face!.embedding)).toBeGreaterThan(POLICY.faceMatch.review);
  });

  it('takes no face whose box reaches well above the frame of a selfie aimed at the chest', { timeout: 60_000 }, async () => {
    // Retired held-out 1e4e/44: the bare frame shows the detector a chin at its top edge (its box
    // 47% above the frame), matched at 0.5 with the portrait and approved.
    const c = await buildCase('heldout', 44, 'heldout-1e4e');
    const selfie = await decodeImage(c.selfie, 1024);
    expect(await faces.analyse(selfie, 512)).not.toBeNull();
    expect(await faces.analyseSelfie(selfie)).toBeNull();
  });

  it(
    'keeps a profile the detector boxes surely but the mesh cannot fit, as a meshless face that matches no one',
    { timeout: 60_000 },
    async () => {
      // Retired held-out fb38/141: someone else's selfie, the cameraman in profile behind his
      // camcorder, mirrored and dim; the mesh scores his head under its line on every framing, and
      // the selfie had been rejected as showing no face.
      const c = await buildCase('heldout', 141, 'heldout-fb38');
      const selfie = await decodeImage(c.selfie, 1024);
      const face = await faces.analyseSelfie(selfie);
      expect(face).not.toBeNull();
      expect(face!.meshless).toBe(true);
      expect(face!.score).toBeGreaterThanOrEqual(0.6);
      // No points to align a descriptor by: nothing to compare (the pipeline reviews it).
      expect(face!.embedding).toHaveLength(0);
      const [, y, , h] = face!.box;
      expect(y).toBeGreaterThan(0.05);
      expect(y + h).toBeLessThan(0.95);
      const doc = await faces.analyseDocument(await decodeImage(c.docFront));
      expect(comparedEmbeddings(doc!, face!)).toBeNull();
    },
  );

  it('finds no face in a selfie aimed at the chest past the bottom of the photo', { timeout: 60_000 }, async () => {
    // Retired held-out 58be/204: the generator extended the photo past its bottom edge by mirroring
    // it, which brought the face back upside down at the frame's bottom, and the face search found
    // it (matched at 0.09: no_face caught as face_mismatch). The photo's last rows are repeated now.
    const c = await buildCase('heldout', 204, 'heldout-58be');
    expect(await faces.analyseSelfie(await decodeImage(c.selfie, 1024))).toBeNull();
  });

  it('keeps no meshless face cut by the top of a selfie aimed at the chest', { timeout: 60_000 }, async () => {
    // Retired held-out 94ff/122: a chin at the top edge is boxed at 0.63 by the detector, no mesh fits it.
    const c = await buildCase('heldout', 122, 'heldout-94ff');
    expect(await faces.analyseSelfie(await decodeImage(c.selfie, 1024))).toBeNull();
  });

  it(
    'replaces an unsure find on the wider margins by a sure frontal face on the narrower ones, never by a sure profile',
    { timeout: 60_000 },
    async () => {
      // Retired held-out fb38/129: a close selfie of the same person, of which the wider margins show
      // the detector only an eye and the cap's badge (0.49, matched at 0.33); the narrower ones show her face.
      const c = await buildCase('heldout', 129, 'heldout-fb38');
      const face = await faces.analyseSelfie(await decodeImage(c.selfie, 1024));
      expect(face!.score).toBeGreaterThanOrEqual(POLICY.selfieFace.minConfidence);
      const doc = await faces.analyseDocument(await decodeImage(c.docFront));
      expect(await faces.similarity(doc!.embedding, face!.embedding)).toBeGreaterThan(POLICY.faceMatch.review);
      // Retired held-out 1f77/187: the cameraman, someone else, unsure on the wider margins and sure
      // on the narrower ones turned 36 degrees, where he matched the portrait at 0.51: he stays unsure.
      const profile = await buildCase('heldout', 187, 'heldout-1f77');
      const unsure = await faces.analyseSelfie(await decodeImage(profile.selfie, 1024));
      expect(unsure!.score).toBeLessThan(POLICY.selfieFace.minConfidence);
    },
  );

  it('finds no portrait on a document without one', async () => {
    expect(await faces.analyseDocument(await decodeImage(await textCard(2400, 1500)))).toBeNull();
  });
});
