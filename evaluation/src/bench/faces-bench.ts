/**
 * `npm run bench:faces`: the face descriptor (human's FaceRes) on tfjs's WASM backend, its graph as
 * shipped against the graph `fuse-activations.ts` serves, in the same process, alternated: median
 * milliseconds a face (224 x 224 input) and their ratio; then a whole face analysis (detector, mesh,
 * descriptor) of a fixture portrait as the pipeline runs it, for scale. The two graphs' outputs are
 * compared too (largest difference), so a fast wrong rewrite cannot pass for a gain. Then each of
 * the three face models (detector, mesh, descriptor) on tfjs's WASM backend against the same graph
 * converted for onnxruntime (`FACE_RUNTIME=native`, onnx/), alternated, with their ratio and
 * largest output difference.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as TfConverter from '@tensorflow/tfjs-converter';
import type * as TfCore from '@tensorflow/tfjs-core';
import sharp from 'sharp';
import { FACES_DIR } from '@service/fixtures/synthetic-documents';
import { FaceAnalyzer, HUMAN_MODELS_DIR } from '@service/api/pipeline/read/faces/faces';
import {
  fuseActivations,
  inMemoryArtifacts,
  readGraphModel,
  scalarReader,
  type GraphModelJson,
} from '@service/api/pipeline/read/faces/fuse-activations';
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
  const { model: shipped, weights } = await readGraphModel(pathToFileURL(path.join(HUMAN_MODELS_DIR, 'faceres.json')));
  const { model: fused, fused: count } = fuseActivations(shipped, scalarReader(shipped, weights));
  const load = (m: GraphModelJson) => converter.loadGraphModel(tf.io.fromMemory(inMemoryArtifacts(m, weights) as never));
  const graphs = { shipped: await load(shipped), fused: await load(fused) };
  const input = tf.randomUniform([1, 224, 224, 3], 0, 1, 'float32', 11);
  const run = (g: TfConverter.GraphModel) => {
    const out = g.execute(input) as TfCore.Tensor[];
    const values = out.map((t) => t.dataSync());
    tf.dispose(out);
    return values;
  };
  const worst = largestDifference(run(graphs.shipped), run(graphs.fused));
  const times = alternated({ shipped: () => run(graphs.shipped), fused: () => run(graphs.fused) });

  const portrait = await sharp(path.join(FACES_DIR, 'astronaut.png')).jpeg().toBuffer();
  await faces.analyse(portrait);
  const whole: number[] = [];
  for (let i = 0; i < PER_ROUND * 2; i++) {
    const start = performance.now();
    await faces.analyse(portrait);
    whole.push(performance.now() - start);
  }

  const [s, f] = [median(times.shipped), median(times.fused)];
  console.log(`face descriptor (FaceRes, 224 x 224), tfjs WASM, ${ROUNDS} alternated rounds of ${PER_ROUND}:`);
  console.log(`  graph as shipped        median ${s.toFixed(1)} ms`);
  console.log(
    `  fused (${count} clips)       median ${f.toFixed(1)} ms   ratio ${(f / s).toFixed(2)} (${((1 - f / s) * 100).toFixed(0)}% less)`,
  );
  console.log(`  largest output difference ${worst.toExponential(1)}`);
  console.log(`whole face analysis (${faces.runtime}), 512 px portrait: median ${median(whole).toFixed(1)} ms`);

  console.log(`each face model, tfjs WASM against onnxruntime (native), ${ROUNDS} alternated rounds of ${PER_ROUND}:`);
  for (const [file, size] of [
    ['blazeface.json', 256],
    ['facemesh.json', 192],
    ['faceres.json', 224],
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
