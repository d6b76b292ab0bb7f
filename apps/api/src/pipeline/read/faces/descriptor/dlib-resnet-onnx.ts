/**
 * face-api's face recognition net (@vladmandic/face-api, MIT: dlib's ResNet-34-style face
 * descriptor, 150 x 150 RGB in, 128 values out) written as an ONNX graph from the package's own
 * weight files, so it runs on onnxruntime's native kernels with no tfjs at all. The layers are
 * face-api's (src/faceRecognitionNet: FaceRecognitionNet.ts, convLayer.ts, residualLayer.ts,
 * scaleLayer.ts), with two exact rewrites:
 * - each convolution's bias and the scale layer after it folded into the convolution
 *   ((conv(x, W) + b) * s + t = conv(x, W * s) + (b * s + t));
 * - the input's normalisation ((x - mean) / 255, per channel) folded into the first convolution,
 *   exact since it pads nothing ('valid'): the graph takes 0-255 RGB.
 * Input: `input`, [N, 3, 150, 150] float (NCHW, RGB, 0-255). Output: `descriptor`, [N, 128].
 */
import fs from 'node:fs';
import path from 'node:path';
import type { OnnxGraph, OnnxInitializer, OnnxNode } from '../onnx/onnx-model.js';

export const INPUT_SIDE = 150;
export const DESCRIPTOR_LENGTH = 128;
/** face-api's per-channel means (FaceRecognitionNet.ts), subtracted before dividing by 255. */
const MEAN_RGB = [122.782, 117.001, 104.298];

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: 'float32';
  quantization?: { dtype: 'uint8'; scale: number; min: number };
}

/** The weights by name, dequantised (tfjs's rule: q * scale + min), from the manifest and its shards. */
export function readWeights(modelDir: string): Map<string, { shape: number[]; values: Float32Array }> {
  const manifest = JSON.parse(fs.readFileSync(path.join(modelDir, 'face_recognition_model-weights_manifest.json'), 'utf8')) as {
    paths: string[];
    weights: WeightSpec[];
  }[];
  const out = new Map<string, { shape: number[]; values: Float32Array }>();
  for (const group of manifest) {
    const bytes = Buffer.concat(group.paths.map((p) => fs.readFileSync(path.join(modelDir, p))));
    let offset = 0;
    for (const w of group.weights) {
      const n = w.shape.reduce((a, b) => a * b, 1);
      const values = new Float32Array(n);
      if (w.quantization) {
        if (w.quantization.dtype !== 'uint8') throw new Error(`${w.name}: quantisation ${w.quantization.dtype} not known`);
        for (let i = 0; i < n; i++) values[i] = bytes[offset + i]! * w.quantization.scale + w.quantization.min;
        offset += n;
      } else {
        for (let i = 0; i < n; i++) values[i] = bytes.readFloatLE(offset + 4 * i);
        offset += 4 * n;
      }
      out.set(w.name, { shape: w.shape, values });
    }
  }
  return out;
}

class GraphBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxInitializer[] = [];
  private n = 0;

  constructor(private readonly weights: Map<string, { shape: number[]; values: Float32Array }>) {}

  private w(name: string) {
    const t = this.weights.get(name);
    if (!t) throw new Error(`face recognition weights lack ${name}`);
    return t;
  }

  private fresh(prefix: string) {
    return `${prefix}_${this.n++}`;
  }

  initializer(name: string, dims: number[], values: Float32Array | BigInt64Array): string {
    this.initializers.push({ name, dims, values });
    return name;
  }

  op(op: string, inputs: string[], attributes?: OnnxNode['attributes']): string {
    const out = this.fresh(op);
    this.nodes.push({ op, inputs, outputs: [out], ...(attributes ? { attributes } : {}) });
    return out;
  }

  /**
   * face-api's convLayer: conv (tfjs HWIO filters, 'same' or 'valid'), bias, scale layer,
   * optionally ReLU. `inputNorm` folds (x - mean) / 255 into it (first layer only).
   */
  conv(x: string, prefix: string, stride: number, relu: boolean, padding: 'same' | 'valid', inputNorm = false): string {
    const f = this.w(`${prefix}/conv/filters`);
    const b = this.w(`${prefix}/conv/bias`).values;
    const s = this.w(`${prefix}/scale/weights`).values;
    const t = this.w(`${prefix}/scale/biases`).values;
    const [kh, kw, cin, cout] = f.shape as [number, number, number, number];
    const weights = new Float32Array(cout * cin * kh * kw);
    const bias = new Float32Array(cout);
    for (let o = 0; o < cout; o++) {
      let shift = 0;
      for (let i = 0; i < cin; i++)
        for (let y = 0; y < kh; y++)
          for (let xx = 0; xx < kw; xx++) {
            const v = f.values[((y * kw + xx) * cin + i) * cout + o]! * s[o]!;
            const scaled = inputNorm ? v / 255 : v;
            weights[((o * cin + i) * kh + y) * kw + xx] = scaled;
            if (inputNorm) shift += scaled * MEAN_RGB[i]!;
          }
      bias[o] = b[o]! * s[o]! + t[o]! - shift;
    }
    const wName = this.initializer(`${prefix}/W`, [cout, cin, kh, kw], weights);
    const bName = this.initializer(`${prefix}/B`, [cout], bias);
    // tfjs 'same' with stride 1 and an odd kernel pads (k - 1) / 2 each side.
    const pad = padding === 'same' ? (kh - 1) / 2 : 0;
    const y = this.op('Conv', [x, wName, bName], { kernel_shape: [kh, kw], strides: [stride, stride], pads: [pad, pad, pad, pad] });
    return relu ? this.op('Relu', [y]) : y;
  }

  /** face-api's residual: conv, conv (no ReLU), add the input, ReLU. */
  residual(x: string, prefix: string): string {
    const out = this.conv(this.conv(x, `${prefix}/conv1`, 1, true, 'same'), `${prefix}/conv2`, 1, false, 'same');
    return this.op('Relu', [this.op('Add', [out, x])]);
  }

  /**
   * face-api's residualDown: a strided 'valid' conv and a conv; the shortcut is the input
   * average-pooled 2 x 2 and zero-padded to the new channel count; where the conv branch came
   * out one pixel smaller, it gets a zero row and column at the end (face-api's concat of zeros).
   */
  residualDown(x: string, prefix: string, side: number, channelsIn: number): { out: string; side: number } {
    const convSide = Math.floor((side - 3) / 2) + 1;
    const poolSide = Math.floor((side - 2) / 2) + 1;
    let out = this.conv(this.conv(x, `${prefix}/conv1`, 2, true, 'valid'), `${prefix}/conv2`, 1, false, 'same');
    const channelsOut = this.w(`${prefix}/conv2/conv/filters`).shape[3]!;
    if (convSide !== poolSide) out = this.pad(out, [0, 0, 0, 0, 0, 0, poolSide - convSide, poolSide - convSide]);
    let pooled = this.op('AveragePool', [x], { kernel_shape: [2, 2], strides: [2, 2] });
    if (channelsOut !== channelsIn) pooled = this.pad(pooled, [0, 0, 0, 0, 0, channelsOut - channelsIn, 0, 0]);
    return { out: this.op('Relu', [this.op('Add', [pooled, out])]), side: poolSide };
  }

  private pad(x: string, pads: number[]): string {
    const name = this.initializer(this.fresh('pads'), [pads.length], BigInt64Array.from(pads.map(BigInt)));
    return this.op('Pad', [x, name], { mode: 'constant' });
  }
}

/** The net as an ONNX graph (`encodeOnnxModel` from the service's onnx-model.ts turns it into bytes). */
export function dlibResnetGraph(weights: Map<string, { shape: number[]; values: Float32Array }>): OnnxGraph {
  const g = new GraphBuilder(weights);
  let x = g.conv('input', 'conv32_down', 2, true, 'valid', true);
  x = g.op('MaxPool', [x], { kernel_shape: [3, 3], strides: [2, 2] });
  let side = Math.floor((Math.floor((INPUT_SIDE - 7) / 2) + 1 - 3) / 2) + 1;
  for (const p of ['conv32_1', 'conv32_2', 'conv32_3']) x = g.residual(x, p);
  let channels = 32;
  const stages: [string, string[]][] = [
    ['conv64_down', ['conv64_1', 'conv64_2', 'conv64_3']],
    ['conv128_down', ['conv128_1', 'conv128_2']],
    ['conv256_down', ['conv256_1', 'conv256_2']],
    ['conv256_down_out', []],
  ];
  for (const [down, rest] of stages) {
    ({ out: x, side } = g.residualDown(x, down, side, channels));
    channels = weights.get(`${down}/conv2/conv/filters`)!.shape[3]!;
    for (const p of rest) x = g.residual(x, p);
  }
  const pooled = g.op('Flatten', [g.op('GlobalAveragePool', [x])], { axis: 1 });
  const fc = weights.get('fc');
  if (!fc) throw new Error('face recognition weights lack fc');
  const out = 'descriptor';
  g.nodes.push({ op: 'MatMul', inputs: [pooled, g.initializer('fc', fc.shape, fc.values)], outputs: [out] });
  return { nodes: g.nodes, initializers: g.initializers, input: { name: 'input', dims: [1, 3, INPUT_SIDE, INPUT_SIDE] }, outputs: [out] };
}
