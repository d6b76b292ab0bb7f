import fs from 'node:fs';

/**
 * Rewrites a TensorFlow.js graph model so the WASM backend runs one fused kernel where the file
 * spells out several elementwise passes. The face descriptor (human's `faceres`, a Keras
 * MobileNet) writes every ReLU6 as `Relu -> Minimum(6) -> Maximum(0)` and every convolution's
 * bias as a separate `Add`: on tfjs's WASM backend those broadcast `Minimum`/`Maximum` passes cost
 * more than the convolutions beside them (about 160 of 490 ms a face, measured with tf.profile).
 *
 * Only rewrites that compute the same numbers are made, and only where the pattern is provably the
 * one meant: the clip bounds are read from the weights and must be exactly 0 and 6; every
 * intermediate result must have no other reader; the bias must be one value per output channel
 * of an NHWC convolution. Anything else is left as it was.
 */

export interface GraphNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, unknown>;
  device?: string;
}

export interface WeightEntry {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype?: string; scale?: number; min?: number; original_dtype?: string };
}

export interface GraphModelJson {
  modelTopology: { node: GraphNode[]; [key: string]: unknown };
  weightsManifest: { paths: string[]; weights: WeightEntry[] }[];
  [key: string]: unknown;
}

/** A graph model's JSON and its weight bytes (its shards concatenated in manifest order), read from disk. */
export async function readGraphModel(jsonUrl: URL): Promise<{ model: GraphModelJson; weights: Buffer }> {
  const model = JSON.parse(await fs.promises.readFile(jsonUrl, 'utf8')) as GraphModelJson;
  return { model, weights: await readWeights(model, jsonUrl) };
}

/** A graph model's weight bytes: its shards, named relative to its JSON, concatenated in manifest order. */
export async function readWeights(model: GraphModelJson, jsonUrl: URL): Promise<Buffer> {
  const shards = (model.weightsManifest ?? []).flatMap((g) => g.paths).map((p) => fs.promises.readFile(new URL(p, jsonUrl)));
  return Buffer.concat(await Promise.all(shards));
}

/** What `tf.io.fromMemory` takes to load a graph model held in memory (tests and the benchmark compare graphs this way). */
export function inMemoryArtifacts(model: GraphModelJson, weights: Buffer) {
  return {
    modelTopology: model.modelTopology,
    signature: model.signature,
    weightSpecs: model.weightsManifest.flatMap((g) => g.weights),
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.length),
  };
}

/** A scalar constant of the model by node name, or undefined when it cannot be read exactly. */
export type ScalarOf = (name: string) => number | undefined;

const base64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** Returns a rewritten copy (the input is not changed) and how many patterns were fused. */
export function fuseActivations(model: GraphModelJson, scalarOf: ScalarOf): { model: GraphModelJson; fused: number } {
  const nodes = model.modelTopology.node.map((n) => ({ ...n, input: n.input ? [...n.input] : undefined }));
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const readers = new Map<string, number>();
  for (const n of nodes) for (const i of n.input ?? []) readers.set(inputName(i), (readers.get(inputName(i)) ?? 0) + 1);
  const soleReader = (name: string) => readers.get(name) === 1;
  const shapeOf = weightShapes(model);
  const removed = new Set<string>();
  let fused = 0;

  for (const max of nodes) {
    // Maximum(Minimum(Relu(x), 6), 0): the clip written out; `max` keeps its name, so its readers stay.
    if (max.op !== 'Maximum' || max.input?.length !== 2) continue;
    const min = byName.get(max.input[0]!);
    if (!min || min.op !== 'Minimum' || min.input?.length !== 2 || !soleReader(min.name)) continue;
    const relu = byName.get(min.input[0]!);
    if (!relu || relu.op !== 'Relu' || relu.input?.length !== 1 || !soleReader(relu.name)) continue;
    if (!isConstScalar(byName, min.input[1]!, 6, scalarOf) || !isConstScalar(byName, max.input[1]!, 0, scalarOf)) continue;
    const x = relu.input[0]!;
    removed.add(min.name).add(relu.name);

    // Conv2D(x, W) + b feeding the clip: one fused convolution with its bias and ReLU6.
    const add = byName.get(x);
    const conv = add?.op === 'Add' && add.input?.length === 2 && soleReader(add.name) ? byName.get(add.input[0]!) : undefined;
    const bias = add?.input?.[1];
    if (add && conv && bias && isBiasFor(conv, bias, byName, shapeOf) && soleReader(conv.name)) {
      removed.add(add.name).add(conv.name);
      Object.assign(max, {
        op: '_FusedConv2D',
        input: [conv.input![0]!, conv.input![1]!, bias],
        attr: {
          ...conv.attr,
          num_args: { i: '1' },
          fused_ops: { list: { s: [base64('BiasAdd'), base64('Relu6')] } },
          epsilon: { f: 0 },
        },
      });
    } else {
      Object.assign(max, { op: 'Relu6', input: [x], attr: { T: { type: 'DT_FLOAT' } } });
    }
    fused++;
  }
  // Constants only the removed nodes read (the clip bounds) go too: a graph without a signature
  // takes every unread node for an output.
  const stillRead = new Set(nodes.filter((n) => !removed.has(n.name)).flatMap((n) => (n.input ?? []).map(inputName)));
  const node = nodes.filter((n) => !removed.has(n.name) && (n.op !== 'Const' || stillRead.has(n.name) || !readers.has(n.name)));
  return { model: { ...model, modelTopology: { ...model.modelTopology, node } }, fused };
}

/** `name`, `name:1` and the control input `^name` all read node `name`. */
function inputName(input: string): string {
  return input.replace(/^\^/, '').replace(/:\d+$/, '');
}

function isConstScalar(byName: Map<string, GraphNode>, name: string, value: number, scalarOf: ScalarOf): boolean {
  return byName.get(name)?.op === 'Const' && scalarOf(name) === value;
}

/** A plain NHWC Conv2D whose output channels match a one-dimensional constant `bias`. */
function isBiasFor(conv: GraphNode, bias: string, byName: Map<string, GraphNode>, shapeOf: Map<string, number[]>): boolean {
  if (conv.op !== 'Conv2D' || conv.input?.length !== 2) return false;
  const format = (conv.attr?.data_format as { s?: string } | undefined)?.s;
  if (format !== undefined && Buffer.from(format, 'base64').toString('utf8') !== 'NHWC') return false;
  const filter = shapeOf.get(conv.input[1]!);
  const b = shapeOf.get(bias);
  return byName.get(bias)?.op === 'Const' && !!filter && filter.length === 4 && !!b && b.length === 1 && b[0] === filter[3];
}

function weightShapes(model: GraphModelJson): Map<string, number[]> {
  return new Map(model.weightsManifest.flatMap((g) => g.weights.map((w) => [w.name, w.shape] as const)));
}

/**
 * Reads scalar constants from a model's weight bytes (its shards concatenated in manifest order).
 * Plain float32 and float16-quantized values are read; any other encoding answers undefined, so
 * nothing that depends on it is rewritten.
 */
export function scalarReader(model: GraphModelJson, weights: Buffer): ScalarOf {
  const at = new Map<string, { offset: number; entry: WeightEntry }>();
  let offset = 0;
  for (const group of model.weightsManifest)
    for (const entry of group.weights) {
      at.set(entry.name, { offset, entry });
      offset += entry.shape.reduce((a, b) => a * b, 1) * bytesPerValue(entry);
    }
  return (name) => {
    const found = at.get(name);
    if (!found || found.entry.shape.length !== 0) return undefined;
    const { entry } = found;
    if (found.offset + bytesPerValue(entry) > weights.length) return undefined;
    if (entry.dtype !== 'float32') return undefined;
    if (!entry.quantization) return weights.readFloatLE(found.offset);
    if (entry.quantization.dtype === 'float16') return halfToFloat(weights.readUInt16LE(found.offset));
    return undefined;
  };
}

function bytesPerValue(entry: WeightEntry): number {
  const q = entry.quantization?.dtype;
  if (q === 'float16' || q === 'uint16') return 2;
  if (q === 'uint8') return 1;
  return entry.dtype === 'bool' ? 1 : 4;
}

/** IEEE 754 half precision to a number. */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}
