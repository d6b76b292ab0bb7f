import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as TfConverter from '@tensorflow/tfjs-converter';
import type * as TfCore from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { FaceAnalyzer, HUMAN_MODELS_DIR } from '../../src/pipeline/read/faces/faces.js';
import {
  fuseActivations,
  halfToFloat,
  inMemoryArtifacts,
  readGraphModel,
  scalarReader,
  type GraphModelJson,
  type GraphNode,
  type ScalarOf,
} from '../../src/pipeline/read/faces/fuse-activations.js';

const NHWC = Buffer.from('NHWC').toString('base64');

/** input -> Conv2D -> Add(bias) -> Relu -> Minimum(six) -> Maximum(zero) -> out, as Keras writes a ReLU6 layer. */
function clippedConv(extra: GraphNode[] = []): GraphModelJson {
  const node: GraphNode[] = [
    { name: 'input', op: 'Placeholder' },
    { name: 'w', op: 'Const' },
    { name: 'b', op: 'Const' },
    { name: 'six', op: 'Const' },
    { name: 'zero', op: 'Const' },
    { name: 'conv', op: 'Conv2D', input: ['input', 'w'], attr: { data_format: { s: NHWC }, padding: { s: 'U0FNRQ==' } } },
    { name: 'add', op: 'Add', input: ['conv', 'b'] },
    { name: 'relu', op: 'Relu', input: ['add'] },
    { name: 'min', op: 'Minimum', input: ['relu', 'six'] },
    { name: 'out', op: 'Maximum', input: ['min', 'zero'] },
    ...extra,
  ];
  const weights = [
    { name: 'w', shape: [1, 1, 3, 4], dtype: 'float32' },
    { name: 'b', shape: [4], dtype: 'float32' },
    { name: 'six', shape: [], dtype: 'float32' },
    { name: 'zero', shape: [], dtype: 'float32' },
  ];
  return { modelTopology: { node }, weightsManifest: [{ paths: ['m.bin'], weights }] };
}
const bounds: ScalarOf = (name) => ({ six: 6, zero: 0 })[name];
const ops = (m: GraphModelJson) => m.modelTopology.node.map((n) => n.op);

describe('fuseActivations: only rewrites that compute the same numbers', () => {
  it('turns Conv2D + Add + Relu + Minimum(6) + Maximum(0) into one fused convolution under the clip node name', () => {
    const { model, fused } = fuseActivations(clippedConv(), bounds);
    expect(fused).toBe(1);
    const out = model.modelTopology.node.find((n) => n.name === 'out')!;
    expect(out.op).toBe('_FusedConv2D');
    expect(out.input).toEqual(['input', 'w', 'b']);
    const fusedOps = (out.attr!.fused_ops as { list: { s: string[] } }).list.s.map((s) => Buffer.from(s, 'base64').toString());
    expect(fusedOps).toEqual(['BiasAdd', 'Relu6']);
    expect(out.attr!.padding).toEqual({ s: 'U0FNRQ==' });
    expect(ops(model)).not.toContain('Minimum');
    expect(ops(model)).not.toContain('Conv2D');
  });

  it('leaves the graph alone when a clip bound is not exactly 0 and 6', () => {
    expect(fuseActivations(clippedConv(), (n) => ({ six: 5, zero: 0 })[n]).fused).toBe(0);
    expect(fuseActivations(clippedConv(), (n) => ({ six: 6, zero: -1 })[n]).fused).toBe(0);
    expect(fuseActivations(clippedConv(), () => undefined).fused).toBe(0);
  });

  it('keeps an intermediate result that something else reads', () => {
    const { model, fused } = fuseActivations(clippedConv([{ name: 'tap', op: 'Identity', input: ['relu'] }]), bounds);
    expect(fused).toBe(0);
    expect(ops(model)).toContain('Minimum');
  });

  it('fuses only the clip when the bias is not one value per output channel', () => {
    const m = clippedConv();
    m.weightsManifest[0]!.weights[1]!.shape = [1, 4];
    const { model, fused } = fuseActivations(m, bounds);
    expect(fused).toBe(1);
    expect(model.modelTopology.node.find((n) => n.name === 'out')).toMatchObject({ op: 'Relu6', input: ['add'] });
    expect(ops(model)).toContain('Conv2D');
  });

  it('does not change the model it was given', () => {
    const m = clippedConv();
    const before = JSON.stringify(m);
    fuseActivations(m, bounds);
    expect(JSON.stringify(m)).toBe(before);
  });

  it('reads float32 and float16 scalars from the weights, in manifest order', () => {
    const m: GraphModelJson = {
      modelTopology: { node: [] },
      weightsManifest: [
        {
          paths: ['a.bin'],
          weights: [
            { name: 'v', shape: [3], dtype: 'float32' },
            { name: 'h', shape: [], dtype: 'float32', quantization: { dtype: 'float16', original_dtype: 'float32' } },
            { name: 'f', shape: [], dtype: 'float32' },
            { name: 'q', shape: [], dtype: 'float32', quantization: { dtype: 'uint8', scale: 1, min: 0 } },
          ],
        },
      ],
    };
    const bytes = Buffer.alloc(12 + 2 + 4 + 1);
    bytes.writeUInt16LE(0x4600, 12); // 6 in half precision
    bytes.writeFloatLE(-0.5, 14);
    const read = scalarReader(m, bytes);
    expect(read('h')).toBe(6);
    expect(read('f')).toBe(-0.5);
    expect(read('v')).toBeUndefined(); // not a scalar
    expect(read('q')).toBeUndefined(); // an encoding not read exactly
    expect(read('missing')).toBeUndefined();
    expect([halfToFloat(0), halfToFloat(0x3c00), halfToFloat(0xc000), halfToFloat(0x7c00)]).toEqual([0, 1, -2, Infinity]);
  });
});

describe('the face descriptor rewritten gives the same numbers', () => {
  const require = createRequire(import.meta.url);
  // The CommonJS builds human itself loads, so this test runs on the WASM backend it set up.
  const tf = require('@tensorflow/tfjs-core') as typeof TfCore;
  const converter = require('@tensorflow/tfjs-converter') as typeof TfConverter;
  const faceres = pathToFileURL(path.join(HUMAN_MODELS_DIR, 'faceres.json'));

  beforeAll(async () => {
    await FaceAnalyzer.start();
  }, 60_000);

  it('is what the face analyser loads: faceres as served to human has no clip left', async () => {
    // FaceAnalyzer.start installed the file:// fetch human loads its models through.
    const served = (await (await fetch(faceres.href)).json()) as GraphModelJson;
    const opsServed = served.modelTopology.node.map((n) => n.op);
    expect(opsServed).not.toContain('Minimum');
    expect(opsServed.filter((op) => op === '_FusedConv2D')).toHaveLength(14);
    expect(opsServed.filter((op) => op === 'Relu6')).toHaveLength(13);
  });

  it('fuses all 27 clipped ReLUs of faceres, and its 1024 outputs agree with the original to 1e-4', async () => {
    const { model: original, weights } = await readGraphModel(faceres);
    const { model: rewritten, fused } = fuseActivations(original, scalarReader(original, weights));
    expect(fused).toBe(27);
    expect(tf.getBackend()).toBe('wasm');
    const load = (m: GraphModelJson) => converter.loadGraphModel(tf.io.fromMemory(inMemoryArtifacts(m, weights) as never));
    const [a, b] = await Promise.all([load(original), load(rewritten)]);
    const input = tf.randomUniform([1, 224, 224, 3], 0, 1, 'float32', 7);
    const outputs = (m: typeof a) => (m.execute(input) as TfCore.Tensor[]).map((t) => t.dataSync());
    const [oa, ob] = [outputs(a), outputs(b)];
    expect(ob.length).toBe(oa.length);
    let worst = 0;
    let size = 0;
    oa.forEach((values, i) => {
      size += values.length;
      values.forEach((v, j) => (worst = Math.max(worst, Math.abs(v - ob[i]![j]!))));
    });
    expect(size).toBeGreaterThan(1024);
    expect(worst).toBeLessThan(1e-4);
  }, 60_000);
});
