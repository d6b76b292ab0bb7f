import { createRequire } from 'node:module';
import type { Tensor } from 'onnxruntime-node';
import type * as Binding from 'onnxruntime-node/dist/binding.js';
import type { GraphNode } from '../fuse-activations.js';
import { encodeOnnxModel } from './onnx-model.js';
import { ONNX_INPUT, tfjsToOnnx } from './tfjs-to-onnx.js';

/**
 * A tfjs graph model whose `execute` runs on onnxruntime's native CPU kernels: the graph as tfjs
 * loaded it (its topology and its weights, already dequantised) is converted to ONNX once
 * (`tfjs-to-onnx.ts`) and its `execute` replaced on the instance. Everything around it stays
 * tfjs's (human's crops, resizes, decoding of the outputs), so only the models' arithmetic moves;
 * their outputs agree with tfjs's to float rounding (`native-graph-model.test.ts`). About 4x
 * faster than tfjs's WebAssembly kernels on the detector and the descriptor (docs/pipeline.md).
 *
 * `execute` is synchronous in tfjs and human calls it so: the session is run through
 * onnxruntime-node's binding, whose `run` is synchronous (the package's public `run` only wraps it
 * in a promise). One thread per session: a pipeline child's face thread is the parallelism.
 */

/** The parts of a tfjs `GraphModel` this uses (tfjs-converter 4.22). */
export interface TfjsGraphModel {
  artifacts?: { modelTopology?: { node?: GraphNode[] }; signature?: { outputs?: Record<string, { name?: string }> } };
  weights: Record<string, { shape: number[]; dataSync(): Float32Array | Int32Array | Uint8Array }[]>;
  inputs: { shape?: number[] }[];
  outputNodes: string[];
  execute(input: unknown): unknown;
}

/** The parts of the tfjs namespace this uses. */
export interface TfjsTensors {
  tensor(values: Float32Array, shape: number[], dtype: 'float32'): unknown;
}

interface TfjsTensor {
  shape: number[];
  dataSync(): Float32Array | Int32Array | Uint8Array;
}

/** onnxruntime's CPU provider, one thread, every graph optimisation. */
const SESSION_OPTIONS = {
  executionProviders: ['cpu'],
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
};

const require = createRequire(import.meta.url);
let runtime: { binding: typeof Binding.binding; Tensor: typeof Tensor } | null = null;
/** onnxruntime-node, loaded on first use: a platform its binaries do not cover throws here, and the caller keeps tfjs. */
function onnxRuntime() {
  if (!runtime) {
    const { binding, initOrt } = require('onnxruntime-node/dist/binding.js') as typeof Binding;
    initOrt();
    runtime = { binding, Tensor: (require('onnxruntime-node') as { Tensor: typeof Tensor }).Tensor };
  }
  return runtime;
}

/**
 * `model` converted and loaded into onnxruntime: a replacement for its `execute` (the caller
 * swaps it in). Throws when any part fails (an operation the converter does not know, no binary
 * for this platform).
 */
export function onnxRuntimeExecute(model: TfjsGraphModel, tf: TfjsTensors, label: string): (input: unknown) => unknown {
  const nodes = model.artifacts?.modelTopology?.node;
  const inputShape = model.inputs[0]?.shape;
  if (!nodes || !inputShape || model.inputs.length !== 1) throw new Error(`${label}: not a one-input graph model`);
  const signature = model.artifacts?.signature?.outputs;
  // `outputNodes` names a signature's outputs by their keys; the graph knows them by node name.
  const outputs = model.outputNodes.map((o) => signature?.[o]?.name ?? o);
  const graph = tfjsToOnnx({
    nodes,
    inputShape: inputShape.map((d) => (d > 0 ? d : 1)),
    outputs,
    constant: (name) => {
      const [t] = model.weights[name] ?? [];
      if (!t) return undefined;
      const values = t.dataSync();
      return values instanceof Uint8Array ? undefined : { shape: t.shape, values };
    },
  });
  const { binding, Tensor } = onnxRuntime();
  const session = new binding.InferenceSession();
  const bytes = encodeOnnxModel(graph, `human-${label}`);
  session.loadModel(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength, SESSION_OPTIONS as never);
  // Only the output names are kept: the graph's weights now live in the session.
  const outputNames = graph.outputs;
  const fetches = Object.fromEntries(outputNames.map((o) => [o, null]));
  return (input: unknown) => {
    const x = input as TfjsTensor;
    const values = x.dataSync();
    const feed = new Tensor('float32', values instanceof Float32Array ? values : Float32Array.from(values), x.shape);
    const result = session.run({ [ONNX_INPUT]: feed }, fetches, {});
    const tensors = outputNames.map((o) => {
      const t = result[o] as Tensor;
      return tf.tensor(t.data as Float32Array, [...t.dims], 'float32');
    });
    // As tfjs's execute: one output alone, several as an array in `outputNodes` order.
    return tensors.length === 1 ? tensors[0] : tensors;
  };
}
