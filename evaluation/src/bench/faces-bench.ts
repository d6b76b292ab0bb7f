/**
 * `npm run bench:faces`: the face descriptor the service runs (dlib's ResNet on onnxruntime,
 * read/faces/descriptor/) against the one it replaced (human's FaceRes, its graph converted for
 * onnxruntime as `FACE_RUNTIME=native` ran it), in the same process, alternated: median
 * milliseconds a face, each fed from the same fixture portrait and its mesh's five points (dlib:
 * aligned chip with lanczos and model; FaceRes: its 224 x 224 crop and model), and their ratio.
 * Then a whole face analysis (detector, mesh, descriptor) as the pipeline runs it, for scale; then
 * the two face models human still runs (detector, mesh) on tfjs's WASM backend against the same
 * graph converted for onnxruntime, alternated, with their ratio and largest output difference.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as TfConverter from '@tensorflow/tfjs-converter';
import type * as TfCore from '@tensorflow/tfjs-core';
import sharp from 'sharp';
import { FACES_DIR } from '@service/fixtures/synthetic-documents';
import { FaceAnalyzer, HUMAN_MODELS_DIR } from '@service/api/pipeline/read/faces/faces';
import { inMemoryArtifacts, readGraphModel } from '@service/api/pipeline/read/faces/fuse-activations';
import { FaceDescriptor } from '@service/api/pipeline/read/faces/descriptor/face-descriptor';
import { fivePointsOfMesh } from '@service/api/pipeline/read/faces/descriptor/mesh-points';
import { onnxRuntimeExecute, type TfjsGraphModel } from '@service/api/pipeline/read/faces/onnx/native-graph-model';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PER_ROUND = 8;
const require = createRequire(import.meta.url);
// The CommonJS builds human loads: the backend it set up (WASM) is theirs.
const tf = require('@tensorflow/tfjs-core') as typeof TfCore;
const converter = require('@tensorflow/tfjs-converter') as typeof TfConverter;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Milliseconds of each run, ROUNDS rounds of PER_ROUND each, the order reversed every other round. */
function alternated<K extends string>(runs: Record<K, () => unknown>): Record<K, number[]> {
  const names = Object.keys(runs) as K[];
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < ROUNDS; round++)
    for (const name of round % 2 ? [...names].reverse() : names)
      for (let i = 0; i < PER_ROUND; i++) {
        const start = performance.now();
        runs[name]();
        times[name].push(performance.now() - start);
      }
  return times;
}

/** The largest difference between two runs' outputs, value by value. */
function largestDifference(a: ArrayLike<number>[], b: ArrayLike<number>[]): number {
  let worst = 0;
  a.forEach((values, i) => Array.from(values).forEach((v, j) => (worst = Math.max(worst, Math.abs(v - b[i]![j]!)))));
  return worst;
}

async function main(): Promise<void> {
  const faces = await FaceAnalyzer.start();
  const dlib = await FaceDescriptor.load();
  const portrait = await sharp(path.join(FACES_DIR, 'astronaut.png')).jpeg().toBuffer();
  const { data, info } = await sharp(portrait).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const img = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  const mesh = await faces.mesh({ data, width: info.width, height: info.height });
  if (!mesh) throw new Error('no mesh on the fixture');
  const points = fivePointsOfMesh(mesh.points);
  // FaceRes as the service ran it: its graph on onnxruntime, fed the face's box at 224 x 224.
  const { model, weights } = await readGraphModel(pathToFileURL(path.join(HUMAN_MODELS_DIR, 'faceres.json')));
  const faceres = onnxRuntimeExecute(
    (await converter.loadGraphModel(tf.io.fromMemory(inMemoryArtifacts(model, weights) as never))) as unknown as TfjsGraphModel,
    tf,
    'faceres.json',
  );
  const xs = mesh.points.map((p) => p[0]);
  const ys = mesh.points.map((p) => p[1]);
  const box = { left: Math.round(Math.min(...xs)), top: Math.round(Math.min(...ys)) };
  const region = { ...box, width: Math.round(Math.max(...xs)) - box.left, height: Math.round(Math.max(...ys)) - box.top };
  const runs = {
    dlib: async () => dlib.describe(img, points),
    faceres: async () => {
      const crop = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
        .extract(region)
        .resize(224, 224, { fit: 'fill' })
        .raw()
        .toBuffer();
      const x = tf.tensor4d(
        Float32Array.from(crop, (v) => v / 255),
        [1, 224, 224, 3],
      );
      const out = faceres(x) as TfCore.Tensor | TfCore.Tensor[];
      const values = (Array.isArray(out) ? out : [out]).map((t) => t.dataSync());
      tf.dispose([x, ...(Array.isArray(out) ? out : [out])]);
      return values;
    },
  };
  const times: Record<keyof typeof runs, number[]> = { dlib: [], faceres: [] };
  for (const run of Object.values(runs)) for (let i = 0; i < 3; i++) await run(); // warm-up
  for (let round = 0; round < ROUNDS; round++)
    for (const name of (round % 2 ? ['faceres', 'dlib'] : ['dlib', 'faceres']) as (keyof typeof runs)[])
      for (let i = 0; i < PER_ROUND; i++) {
        const start = performance.now();
        await runs[name]();
        times[name].push(performance.now() - start);
      }
  const [d, f] = [median(times.dlib), median(times.faceres)];
  console.log(`face descriptor per face (crop and model, onnxruntime), ${ROUNDS} alternated rounds of ${PER_ROUND}:`);
  console.log(`  FaceRes (replaced)      median ${f.toFixed(1)} ms`);
  console.log(
    `  dlib ResNet (service)   median ${d.toFixed(1)} ms   ratio ${(d / f).toFixed(2)} (${((1 - d / f) * 100).toFixed(0)}% less)`,
  );

  await faces.analyse(portrait);
  const whole: number[] = [];
  for (let i = 0; i < PER_ROUND * 2; i++) {
    const start = performance.now();
    await faces.analyse(portrait);
    whole.push(performance.now() - start);
  }
  console.log(`whole face analysis (${faces.runtime}), 512 px portrait: median ${median(whole).toFixed(1)} ms`);

  console.log(`each face model, tfjs WASM against onnxruntime (native), ${ROUNDS} alternated rounds of ${PER_ROUND}:`);
  for (const [file, size] of [
    ['blazeface.json', 256],
    ['facemesh.json', 192],
  ] as const) {
    const { model, weights: w } = await readGraphModel(pathToFileURL(path.join(HUMAN_MODELS_DIR, file)));
    const graph = await converter.loadGraphModel(tf.io.fromMemory(inMemoryArtifacts(model, w) as never));
    const onnx = onnxRuntimeExecute(graph as unknown as TfjsGraphModel, tf, file);
    const x = tf.randomUniform([1, size, size, 3], -1, 1, 'float32', 5);
    const outputs = (r: unknown) => {
      const list = (Array.isArray(r) ? r : [r]) as TfCore.Tensor[];
      const values = list.map((t) => t.dataSync());
      tf.dispose(list);
      return values;
    };
    const runs = { wasm: () => outputs(graph.execute(x)), native: () => outputs(onnx(x)) };
    const diff = largestDifference(runs.wasm(), runs.native());
    const t = alternated(runs);
    const [mw, mn] = [median(t.wasm), median(t.native)];
    console.log(
      `  ${file.padEnd(15)} wasm ${mw.toFixed(1)} ms   native ${mn.toFixed(1)} ms   ratio ${(mn / mw).toFixed(2)}   largest output difference ${diff.toExponential(1)}`,
    );
    x.dispose();
  }
}

await main();
