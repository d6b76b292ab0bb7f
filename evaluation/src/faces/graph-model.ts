/**
 * A tfjs graph model read from an npm package's files (model.json and its weight shards), loaded
 * into human's tfjs (the WASM backend) without fetch, and optionally moved onto onnxruntime's
 * native kernels with the service's converter where every operation of the graph converts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { onnxRuntimeExecute, type TfjsGraphModel, type TfjsTensors } from '@service/api/pipeline/read/faces/onnx/native-graph-model';

/** The parts of tfjs this uses (human's bundled namespace). */
export interface Tf extends TfjsTensors {
  io: { fromMemory(artifacts: object): unknown };
  loadGraphModel(handler: unknown): Promise<LoadedGraphModel>;
  tensor4d(values: Float32Array, shape: [number, number, number, number], dtype: 'float32'): TensorLike;
  dispose(t: unknown): void;
}

export interface TensorLike {
  shape: number[];
  dataSync(): Float32Array;
  dispose(): void;
}

export interface LoadedGraphModel extends TfjsGraphModel {
  execute(input: unknown, outputs?: string | string[]): unknown;
}

interface ModelJson {
  modelTopology: object;
  weightsManifest: { paths: string[]; weights: object[] }[];
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  signature?: object;
  userDefinedMetadata?: object;
}

/** The model's graph and weights from `file` (a model.json) and the shards beside it. */
export async function loadGraphModelFile(tf: Tf, file: string): Promise<LoadedGraphModel> {
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as ModelJson;
  const shards = json.weightsManifest.flatMap((g) => g.paths.map((p) => fs.readFileSync(path.join(path.dirname(file), p))));
  const weights = Buffer.concat(shards);
  return tf.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.length),
      format: json.format,
      generatedBy: json.generatedBy,
      convertedBy: json.convertedBy,
      signature: json.signature,
      userDefinedMetadata: json.userDefinedMetadata,
    }),
  );
}

/** A function from an NHWC float batch to the named output's values, on onnxruntime when asked and possible, else tfjs. */
export function runner(
  tf: Tf,
  model: LoadedGraphModel,
  output: string,
  label: string,
  wantNative: boolean,
): { run(input: Float32Array, shape: [number, number, number, number]): Float32Array; runtime: 'native' | 'wasm' } {
  if (wantNative) {
    try {
      // onnxRuntimeExecute returns the model's outputs in `outputNodes` order; pick the one wanted.
      const at = model.outputNodes.indexOf(output);
      if (at < 0) throw new Error(`${label}: no output ${output}`);
      const execute = onnxRuntimeExecute(model, tf, label);
      return {
        runtime: 'native',
        run(input, shape) {
          const x = tf.tensor4d(input, shape, 'float32');
          const out = execute(x) as TensorLike | TensorLike[];
          x.dispose();
          const list = Array.isArray(out) ? out : [out];
          const values = list[at]!.dataSync().slice();
          for (const t of list) t.dispose();
          return values;
        },
      };
    } catch {
      // Not convertible: tfjs below.
    }
  }
  return {
    runtime: 'wasm',
    run(input, shape) {
      const x = tf.tensor4d(input, shape, 'float32');
      const out = model.execute(x, output) as TensorLike;
      const values = out.dataSync().slice();
      x.dispose();
      out.dispose();
      return values;
    },
  };
}
