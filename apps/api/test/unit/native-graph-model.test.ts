import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as TfConverter from '@tensorflow/tfjs-converter';
import type * as TfCore from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { FaceAnalyzer, HUMAN_MODELS_DIR, requestedFaceRuntime } from '../../src/pipeline/read/faces/faces.js';
import {
  fuseActivations,
  inMemoryArtifacts,
  readGraphModel,
  scalarReader,
  type GraphModelJson,
} from '../../src/pipeline/read/faces/fuse-activations.js';
import { onnxRuntimeExecute, type TfjsGraphModel } from '../../src/pipeline/read/faces/onnx/native-graph-model.js';
import { ConversionError, permuted, tfjsToOnnx } from '../../src/pipeline/read/faces/onnx/tfjs-to-onnx.js';

const require = createRequire(import.meta.url);
// The CommonJS builds human itself loads, so the models run on the WASM backend it set up.
const tf = require('@tensorflow/tfjs-core') as typeof TfCore;
const converter = require('@tensorflow/tfjs-converter') as typeof TfConverter;

let analyser: FaceAnalyzer;
beforeAll(async () => {
  analyser = await FaceAnalyzer.start();
}, 60_000);

const load = async (file: string, rewrite = false) => {
  const { model, weights } = await readGraphModel(pathToFileURL(path.join(HUMAN_MODELS_DIR, file)));
  const json: GraphModelJson = rewrite ? fuseActivations(model, scalarReader(model, weights)).model : model;
  return converter.loadGraphModel(tf.io.fromMemory(inMemoryArtifacts(json, weights) as never));
};

describe('the face models on onnxruntime compute what tfjs computes', () => {
  // Each model as human loads it from its package (faceres also as served, its clipped ReLUs fused).
  for (const [file, rewrite, size, outputs] of [
    ['blazeface.json', false, 256, 4],
    ['facemesh.json', false, 192, 3],
    ['faceres.json', false, 224, 3],
    ['faceres.json', true, 224, 3],
  ] as const) {
    it(`${file}${rewrite ? ' (fused)' : ''}: every output within 5e-5 of tfjs's (relative to its largest value over 1)`, async () => {
      const model = await load(file, rewrite);
      const input = tf.randomUniform([1, size, size, 3], -1, 1, 'float32', 11);
      const asList = (r: unknown) => (Array.isArray(r) ? r : [r]) as TfCore.Tensor[];
      const expected = asList(model.execute(input));
      const execute = onnxRuntimeExecute(model as unknown as TfjsGraphModel, tf, file);
      const actual = asList(execute(input));
      expect(actual).toHaveLength(outputs);
      expected.forEach((e, i) => {
        expect(actual[i]!.shape).toEqual(e.shape);
        const [a, b] = [e.dataSync(), actual[i]!.dataSync()];
        let largest = 0;
        let worst = 0;
        a.forEach((v, j) => {
          largest = Math.max(largest, Math.abs(v));
          worst = Math.max(worst, Math.abs(v - b[j]!));
        });
        expect(largest).toBeGreaterThan(0);
        // Float rounding, summed in another order over up to 28 layers; a misplaced axis is off by the values themselves.
        expect(worst).toBeLessThan(5e-5 * Math.max(1, largest));
      });
    }, 60_000);
  }

  it('is what the face analyser runs on by default here, and FACE_RUNTIME is checked', () => {
    expect(analyser.runtime).toBe('native');
    expect(requestedFaceRuntime(undefined)).toBe('auto');
    expect(requestedFaceRuntime('wasm')).toBe('wasm');
    expect(() => requestedFaceRuntime('gpu')).toThrow(/FACE_RUNTIME/);
  });

  it('the face analyser on it finds, poses and describes a face as before (the fixture photos)', async () => {
    const face = await analyser.analyse(
      fs.readFileSync(path.join(import.meta.dirname, '../../../../tools/fixtures/faces/grace_hopper.jpg')),
    );
    expect(face).not.toBeNull();
    expect(face!.score).toBeGreaterThan(0.9);
    expect(face!.embedding).toHaveLength(128);
    expect(Math.abs(face!.yaw)).toBeLessThan(20);
  });
});

describe('tfjsToOnnx', () => {
  it('permutes a constant axis by axis (HWIO to OIHW)', () => {
    // 1 x 1 x 2 x 3 (H, W, in, out): value = 10 * in + out.
    const hwio = { shape: [1, 1, 2, 3], values: Float32Array.from([0, 1, 2, 10, 11, 12]) };
    expect(Array.from(permuted(hwio, [3, 2, 0, 1]))).toEqual([0, 10, 1, 11, 2, 12]);
  });

  it('names an operation it does not know, so the caller keeps tfjs', () => {
    const graph = {
      nodes: [
        { name: 'x', op: 'Placeholder' },
        { name: 'y', op: 'Tanh', input: ['x'] },
      ],
      constant: () => undefined,
      inputShape: [1, 8, 8, 3],
      outputs: ['y'],
    };
    expect(() => tfjsToOnnx(graph)).toThrow(ConversionError);
    expect(() => tfjsToOnnx(graph)).toThrow(/y: Tanh is not known/);
  });

  it('turns a 4-D activation back to NHWC before a Reshape and at an output', () => {
    const graph = tfjsToOnnx({
      nodes: [
        { name: 'x', op: 'Placeholder' },
        { name: 'r', op: 'Relu', input: ['x'] },
        { name: 'shape', op: 'Const' },
        { name: 'flat', op: 'Reshape', input: ['r', 'shape'] },
      ],
      constant: (name) => (name === 'shape' ? { shape: [2], values: Int32Array.from([1, -1]) } : undefined),
      inputShape: [1, 4, 4, 3],
      outputs: ['flat', 'r'],
    });
    const ops = graph.nodes.map((n) => `${n.op}${n.attributes?.perm ? `(${String(n.attributes.perm)})` : ''}`);
    expect(ops).toEqual(['Transpose(0,3,1,2)', 'Relu', 'Transpose(0,2,3,1)', 'Reshape', 'Identity', 'Transpose(0,2,3,1)', 'Identity']);
  });
});
