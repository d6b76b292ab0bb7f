/**
 * Where liveness's `sameFace` line goes on the service's face_match scale: every photo of the
 * real-face set rendered as the liveness suites render a head (`renderPoseFrames`: a frontal
 * frame and four turned ones), each turned frame scored against its own frontal anchor (the same
 * person turned) and against every other person's anchor (other people), with the service's
 * `FaceAnalyzer.analyse` at liveness's frame size and `similarity`.
 * Usage: node dist/faces/liveness-same-face.js [photos=60]
 */
import fs from 'node:fs';
import { FaceAnalyzer } from '@service/api/pipeline/read/faces/faces';
import { decodeImage } from '@service/api/pipeline/decode/decode';
import { renderPoseFrames } from '@service/fixtures/pose-frames';
import { loadManifest, photoFile } from './manifest.js';

const FRAME_SIDE = 512;

async function main(): Promise<void> {
  const limit = Number(process.argv[2] ?? 60);
  const m = loadManifest();
  const faces = await FaceAnalyzer.start();
  const POSES = ['turn_left', 'turn_right', 'look_up', 'look_down'] as const;
  const people: { person: string; anchor: number[]; turned: { pose: string; e: number[] }[] }[] = [];
  for (const p of m.photos) {
    if (people.length >= limit) break;
    if (people.some((x) => x.person === p.person)) continue; // one photo per person
    let frames;
    try {
      frames = await renderPoseFrames(fs.readFileSync(photoFile(p)), faces);
    } catch {
      continue; // no mesh on the framed photo
    }
    const embed = async (b: Buffer) => (await faces.analyse(await decodeImage(b, FRAME_SIDE), FRAME_SIDE))?.embedding ?? null;
    const anchor = await embed(frames.front);
    if (!anchor) continue;
    const turned: { pose: string; e: number[] }[] = [];
    for (const pose of POSES) {
      const e = await embed(frames[pose]);
      if (e) turned.push({ pose, e });
    }
    people.push({ person: p.person, anchor, turned });
  }
  const q = (xs: number[], f: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(f * xs.length))]!;
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  for (const pose of [...POSES, 'all']) {
    const same: number[] = [];
    const other: number[] = [];
    for (const a of people)
      for (const b of people)
        for (const t of b.turned)
          if (pose === 'all' || t.pose === pose) (a === b ? same : other).push(await faces.similarity(a.anchor, t.e));
    console.log(
      JSON.stringify({
        pose,
        people: people.length,
        same: { n: same.length, min: r3(Math.min(...same)), p05: r3(q(same, 0.05)), p10: r3(q(same, 0.1)), p50: r3(q(same, 0.5)) },
        other: {
          n: other.length,
          max: r3(Math.max(...other)),
          p999: r3(q(other, 0.999)),
          p99: r3(q(other, 0.99)),
          p90: r3(q(other, 0.9)),
          p50: r3(q(other, 0.5)),
        },
      }),
    );
  }
  await faces.release();
}

await main();
