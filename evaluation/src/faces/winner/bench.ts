/**
 * Cost of the chosen descriptor beside today's, in one run on this machine: milliseconds per face
 * (aligned crop and model, the face's five points given) and the RSS its loading adds, for the
 * dlib ResNet on onnxruntime (`FaceDescriptor`) and human's faceres, on onnxruntime through the
 * service's converter as the service runs it, fed its 224 x 224 crop. Each model is loaded in a
 * child process of its own so the RSS it adds is its alone.
 * Usage: node dist/faces/winner/bench.js [faces=200]
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FaceFinder, readRgb, startHuman } from '../find-face.js';
import { DESCRIPTORS, SPECS, startDescriptor, type DescriptorId } from '../descriptors.js';
import { scaledTemplate } from '../align.js';
import { alignedCrop } from '@service/api/pipeline/read/faces/descriptor/face-crop';
import { FaceDescriptor, modelFileBytes } from '@service/api/pipeline/read/faces/descriptor/face-descriptor';
import type { Tf } from '../graph-model.js';

const FIXTURE = fileURLToPath(new URL('../../../../tools/fixtures/faces/astronaut.png', import.meta.url));

const mb = (b: number) => (b / 2 ** 20).toFixed(0);

async function child(which: 'dlib-onnx' | DescriptorId, faces: number): Promise<void> {
  // The face's points first (human is loaded for this, before the RSS baseline).
  const finder = await FaceFinder.start();
  const img = await readRgb(FIXTURE);
  const found = await finder.find(img);
  if (!found) throw new Error('no face on the fixture');
  const tf = (await startHuman()).tf as unknown as Tf;
  global.gc?.();
  const before = process.memoryUsage().rss;
  let describe: () => Promise<unknown>;
  let bytes: number;
  let runtime = 'native';
  if (which === 'dlib-onnx') {
    const d = await FaceDescriptor.load();
    describe = () => d.describe(img, found.points);
    bytes = modelFileBytes();
  } else {
    const d = await startDescriptor(which, tf, { native: true });
    const template = scaledTemplate(SPECS[which].template, SPECS[which].size, SPECS[which].zoom);
    describe = async () => d.embed(await alignedCrop(img, found.points, template));
    bytes = d.bytes;
    runtime = d.runtime;
  }
  for (let i = 0; i < 5; i++) await describe();
  const loaded = process.memoryUsage().rss;
  const times: number[] = [];
  for (let i = 0; i < faces; i++) {
    const t0 = performance.now();
    await describe();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const after = process.memoryUsage().rss;
  console.log(
    JSON.stringify({
      which,
      runtime,
      modelMB: Number(mb(bytes)),
      p50ms: Number(times[Math.floor(times.length / 2)]!.toFixed(1)),
      p90ms: Number(times[Math.floor(times.length * 0.9)]!.toFixed(1)),
      rssAddedMB: Number(mb(Math.max(loaded, after) - before)),
    }),
  );
}

async function main(): Promise<void> {
  const [mode, arg] = process.argv.slice(2);
  if (mode === '--child') return child(arg as 'dlib-onnx' | DescriptorId, Number(process.argv[4] ?? 200));
  const faces = Number(mode ?? 200);
  const me = fileURLToPath(import.meta.url);
  for (const which of ['dlib-onnx', 'faceres', 'faceres-deep', 'mobileface'] as const) {
    if (which !== 'dlib-onnx' && !DESCRIPTORS.includes(which)) continue;
    const out = execFileSync(process.execPath, ['--expose-gc', me, '--child', which, String(faces)], {
      cwd: path.dirname(me),
      encoding: 'utf8',
    });
    process.stdout.write(
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .join('\n') + '\n',
    );
  }
}

await main();
