/**
 * `node evaluation/dist/synthetic/write-pose-frames.js [outDir]`: writes the sample person that `@service/testing`
 * ships (default `packages/testing/frames`): a frontal face and four rendered head poses from the
 * public-domain Grace Hopper portrait, and a specimen passport with the same portrait and an
 * invented name, so a live-mode verification of those frames can be approved. Run again only when
 * the renderer changes; `test/unit/pose-frames.test.ts` checks the written frames.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FaceAnalyzer } from '@service/api/pipeline/read/faces/faces';
import { renderPoseFrames, SAMPLE_PERSON } from '@service/fixtures/pose-frames';
import { specimenPassport } from '@service/fixtures/synthetic-documents';
import { REPO_ROOT } from '../paths.js';

const root = REPO_ROOT;
const outDir = path.resolve(process.argv[2] ?? path.join(root, 'packages', 'testing', 'frames'));

async function main(): Promise<void> {
  const faces = await FaceAnalyzer.start();
  const portrait = fs.readFileSync(SAMPLE_PERSON.portrait);
  const frames = await renderPoseFrames(portrait, faces);
  fs.mkdirSync(outDir, { recursive: true });
  for (const [name, bytes] of Object.entries(frames)) fs.writeFileSync(path.join(outDir, `${name}.jpg`), bytes);
  const page = await specimenPassport(SAMPLE_PERSON, SAMPLE_PERSON.expiry);
  fs.writeFileSync(path.join(outDir, 'document.jpg'), page);
  console.log(`wrote ${Object.keys(frames).length + 1} files to ${outDir}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
