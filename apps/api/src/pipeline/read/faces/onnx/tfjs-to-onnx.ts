import type { GraphNode } from '../fuse-activations.js';
import type { OnnxGraph, OnnxInitializer, OnnxNode } from './onnx-model.js';

/**
 * A TensorFlow.js graph model (NHWC, as TensorFlow writes it) rewritten as an ONNX graph (NCHW, as
 * ONNX's Conv and MaxPool take it), with the same weights: the face models' graphs run on
 * onnxruntime's native kernels (`native-graph-model.ts`) instead of tfjs's WebAssembly ones.
 *
 * The input is transposed to NCHW once; a 4-D activation stays NCHW from then on, and is turned
 * back to NHWC only where its memory order shows (a Reshape, a graph output), so every output
 * holds the numbers tfjs computes, in tfjs's order. Filters are transposed as they are written
 * (HWIO to OIHW; a depthwise filter HWCM to a grouped OIHW); a per-channel constant beside an NCHW
 * activation is shaped [C, 1, 1] to broadcast over it.
 *
 * Only the operations the human package's face models use are known (`ConversionError` names any
 * other, and the caller then keeps tfjs): Conv2D and DepthwiseConv2dNative (with tfjs's fused
 * BiasAdd and Relu, Relu6 or Prelu), elementwise Add, Mul, Minimum, Maximum against a constant or
 * another activation, Relu, Relu6, Prelu, Sigmoid, Softmax, MaxPool, Pad, Reshape, Mean over the spatial
 * axes, MatMul (fused BiasAdd and Relu), Identity. Padding: SAME (extra at the end, ONNX's
 * SAME_UPPER) or VALID.
 */
export interface TfjsGraph {
  nodes: GraphNode[];
  /** A Const node's value by name, as tfjs loaded it. */
  constant(name: string): { shape: number[]; values: Float32Array | Int32Array } | undefined;
  /** The input's shape, NHWC ([batch, height, width, channels]; the batch is left free). */
  inputShape: number[];
  /** The node outputs `execute` returns (`name` or `name:index`), in its order. */
  outputs: string[];
}

export class ConversionError extends Error {}

type Layout = 'nchw' | 'plain';
type Attr = { s?: string; i?: string | number; f?: number; b?: boolean; list?: { i?: (string | number)[]; s?: string[] } };

const NHWC_TO_NCHW = [0, 3, 1, 2];
const NCHW_TO_NHWC = [0, 2, 3, 1];
/** The graph's input name: one no tfjs node is called. */
export const ONNX_INPUT = 'tfjs_input';

const decoded = (s: string) => Buffer.from(s, 'base64').toString('utf8');
const nodeName = (input: string) => input.split(':')[0]!;

export function tfjsToOnnx(graph: TfjsGraph): OnnxGraph {
  return new Converter(graph).run();
}

class Converter {
  private readonly nodes: OnnxNode[] = [];
  private readonly initializers: OnnxInitializer[] = [];
  private readonly layout = new Map<string, Layout>();
  private readonly scalars = new Map<number, string>();
  private readonly byName: Map<string, GraphNode>;
  private unique = 0;

  constructor(private readonly graph: TfjsGraph) {
    this.byName = new Map(graph.nodes.map((n) => [n.name, n]));
  }

  run(): OnnxGraph {
    for (const n of this.graph.nodes) this.convert(n);
    const outputs = this.graph.outputs.map((o) => {
      const name = `output:${nodeName(o)}`;
      this.add('Identity', [this.nhwc(this.produced(nodeName(o)))], [name]);
      return name;
    });
    return { nodes: this.nodes, initializers: this.initializers, input: { name: ONNX_INPUT, dims: this.graph.inputShape }, outputs };
  }

  private convert(n: GraphNode): void {
    const inputs = (n.input ?? []).filter((i) => !i.startsWith('^')).map(nodeName);
    const out = n.name;
    switch (n.op) {
      case 'Const':
        return;
      case 'Placeholder':
        this.add('Transpose', [ONNX_INPUT], [out], { perm: NHWC_TO_NCHW });
        this.layout.set(out, 'nchw');
        return;
      case 'Conv2D':
      case '_FusedConv2D':
      case 'DepthwiseConv2dNative':
        return this.conv(n, inputs);
      case 'AddV2':
      case 'Add':
      case 'Mul':
      case 'Minimum':
      case 'Maximum':
        return this.elementwise(n, inputs);
      case 'Relu':
      case 'Sigmoid':
      case 'Identity':
        this.add(n.op, [this.produced(inputs[0]!)], [out]);
        return this.keepLayout(inputs[0]!, out);
      case 'Relu6':
        this.relu6(this.produced(inputs[0]!), out);
        return this.keepLayout(inputs[0]!, out);
      case 'Prelu':
        this.add('PRelu', [this.nchw(inputs[0]!), this.perChannel(inputs[1]!)], [out]);
        return this.keepLayout(inputs[0]!, out);
      case 'Softmax':
        // tfjs's Softmax is over the last axis: the same axis only where the layout is tfjs's own.
        this.add('Softmax', [this.plain(inputs[0]!)], [out], { axis: -1 });
        return this.keepLayout(inputs[0]!, out);
      case 'MaxPool': {
        const k = this.ints(n, 'ksize');
        const s = this.ints(n, 'strides');
        this.add('MaxPool', [this.nchw(inputs[0]!)], [out], { kernel_shape: [k[1]!, k[2]!], strides: [s[1]!, s[2]!], ...this.padding(n) });
        return this.keepLayout(inputs[0]!, out);
      }
      case 'Pad': {
        const pads = this.constant(inputs[1]!).values;
        // [[before, after] per NHWC axis] to ONNX's [begins..., ends...] per NCHW axis.
        const begins = NHWC_TO_NCHW.map((axis) => pads[2 * axis]!);
        const ends = NHWC_TO_NCHW.map((axis) => pads[2 * axis + 1]!);
        this.add('Pad', [this.nchw(inputs[0]!), this.int64s('pads', [...begins, ...ends])], [out], { mode: 'constant' });
        return this.keepLayout(inputs[0]!, out);
      }
      case 'Reshape': {
        const shape = Array.from(this.constant(inputs[1]!).values);
        this.add('Reshape', [this.nhwc(this.produced(inputs[0]!)), this.int64s('shape', shape)], [out]);
        this.layout.set(out, 'plain');
        return;
      }
      case 'Mean': {
        const axes = Array.from(this.constant(inputs[1]!).values);
        if (this.layout.get(inputs[0]!) !== 'nchw' || axes.join() !== '1,2' || this.attr(n, 'keep_dims')?.b)
          throw new ConversionError(`${out}: Mean over axes ${axes.join()} is not known`);
        this.add('ReduceMean', [inputs[0]!], [out], { axes: [2, 3], keepdims: 0 });
        this.layout.set(out, 'plain');
        return;
      }
      case 'MatMul':
      case '_FusedMatMul':
        return this.matMul(n, inputs);
      default:
        throw new ConversionError(`${out}: ${n.op} is not known`);
    }
  }

  private conv(n: GraphNode, inputs: string[]): void {
    const out = n.name;
    const filter = this.constant(inputs[1]!);
    const [kh, kw, cin, cout] = filter.shape as [number, number, number, number];
    const depthwise = n.op === 'DepthwiseConv2dNative';
    if (this.format(n) !== 'NHWC') throw new ConversionError(`${out}: data format ${this.format(n)}`);
    // HWIO -> OIHW; depthwise HWCM -> (C*M) x 1 x H x W with C groups.
    const weights = depthwise
      ? this.float(inputs[1]!, [cin * cout, 1, kh, kw], permuted(filter, [2, 3, 0, 1]))
      : this.float(inputs[1]!, [cout, cin, kh, kw], permuted(filter, [3, 2, 0, 1]));
    const fused = n.op === '_FusedConv2D' ? this.strings(n, 'fused_ops') : [];
    const convInputs = [this.nchw(inputs[0]!), weights];
    let rest = fused;
    if (rest[0] === 'BiasAdd') {
      const bias = this.constant(inputs[2]!);
      convInputs.push(this.float(inputs[2]!, [bias.values.length], Float32Array.from(bias.values)));
      rest = rest.slice(1);
    }
    if (rest.length > 1) throw new ConversionError(`${out}: fused ${fused.join(', ')} is not known`);
    const strides = this.ints(n, 'strides');
    const dilations = this.ints(n, 'dilations');
    const convOut = rest.length ? this.fresh(out) : out;
    this.add('Conv', convInputs, [convOut], {
      kernel_shape: [kh, kw],
      strides: [strides[1]!, strides[2]!],
      dilations: [dilations[1] ?? 1, dilations[2] ?? 1],
      group: depthwise ? cin : 1,
      ...this.padding(n),
    });
    this.layout.set(convOut, 'nchw');
    this.layout.set(out, 'nchw');
    const activation = rest[0];
    if (activation === undefined) return;
    if (activation === 'Relu') this.add('Relu', [convOut], [out]);
    else if (activation === 'Relu6') this.relu6(convOut, out);
    else if (activation === 'Prelu') this.add('PRelu', [convOut, this.perChannel(inputs[fused[0] === 'BiasAdd' ? 3 : 2]!)], [out]);
    else throw new ConversionError(`${out}: fused ${activation} is not known`);
  }

  private elementwise(n: GraphNode, [a, b]: string[]): void {
    const op = ({ AddV2: 'Add', Add: 'Add', Mul: 'Mul', Minimum: 'Min', Maximum: 'Max' } as const)[n.op as 'Add'];
    const constA = this.isConstant(a!);
    const constB = this.isConstant(b!);
    if (constA && constB) throw new ConversionError(`${n.name}: ${n.op} of two constants`);
    if (!constA && !constB) {
      if (this.layout.get(a!) !== this.layout.get(b!)) throw new ConversionError(`${n.name}: ${n.op} of two layouts`);
      this.add(op, [a!, b!], [n.name]);
      return this.keepLayout(a!, n.name);
    }
    const [x, c] = constA ? [b!, a!] : [a!, b!];
    const value = this.constant(c);
    const operand = this.layout.get(x) === 'nchw' ? this.perChannel(c) : this.float(c, value.shape, Float32Array.from(value.values));
    this.add(op, constA ? [operand, x] : [x, operand], [n.name]);
    this.keepLayout(x, n.name);
  }

  private matMul(n: GraphNode, inputs: string[]): void {
    const out = n.name;
    if (this.attr(n, 'transpose_a')?.b || this.attr(n, 'transpose_b')?.b) throw new ConversionError(`${out}: transposed MatMul`);
    const fused = n.op === '_FusedMatMul' ? this.strings(n, 'fused_ops') : [];
    if (fused.length > 2 || (fused.length && fused[0] !== 'BiasAdd') || (fused[1] && fused[1] !== 'Relu'))
      throw new ConversionError(`${out}: fused ${fused.join(', ')} is not known`);
    const kernel = this.constant(inputs[1]!);
    let current = fused.length ? this.fresh(out) : out;
    this.add('MatMul', [this.plain(inputs[0]!), this.float(inputs[1]!, kernel.shape, Float32Array.from(kernel.values))], [current]);
    if (fused[0] === 'BiasAdd') {
      const bias = this.constant(inputs[2]!);
      const biased = fused[1] ? this.fresh(out) : out;
      this.add('Add', [current, this.float(inputs[2]!, bias.shape, Float32Array.from(bias.values))], [biased]);
      current = biased;
    }
    if (fused[1] === 'Relu') this.add('Relu', [current], [out]);
    this.layout.set(out, 'plain');
  }

  // --- tensors and layouts ---

  private produced(name: string): string {
    if (!this.layout.has(name))
      throw new ConversionError(`${name} is read before it is computed (or is a constant where an activation is expected)`);
    return name;
  }

  private keepLayout(from: string, to: string): void {
    this.layout.set(to, this.layout.get(this.produced(from))!);
  }

  private nchw(name: string): string {
    if (this.layout.get(this.produced(name)) !== 'nchw') throw new ConversionError(`${name} is not a 4-D activation`);
    return name;
  }

  private plain(name: string): string {
    if (this.layout.get(this.produced(name)) === 'nchw')
      throw new ConversionError(`${name} is a 4-D activation where tfjs's layout matters`);
    return name;
  }

  /** The activation in tfjs's own memory order (NHWC where it is 4-D). */
  private nhwc(name: string): string {
    if (this.layout.get(name) !== 'nchw') return name;
    const out = this.fresh(name);
    this.add('Transpose', [name], [out], { perm: NCHW_TO_NHWC });
    this.layout.set(out, 'plain');
    return out;
  }

  // --- constants ---

  private isConstant(name: string): boolean {
    return this.byName.get(name)?.op === 'Const';
  }

  private constant(name: string) {
    const value = this.graph.constant(name);
    if (!value) throw new ConversionError(`constant ${name} is not loaded`);
    return value;
  }

  /** A per-channel constant (or a scalar) beside an NCHW activation: [C] or [1, 1, C] as [C, 1, 1]. */
  private perChannel(name: string): string {
    const { shape, values } = this.constant(name);
    if (values.length === 1) return this.float(name, [], Float32Array.from(values));
    if (shape[shape.length - 1] !== values.length) throw new ConversionError(`${name} (${shape.join('x')}) is not one value per channel`);
    return this.float(name, [values.length, 1, 1], Float32Array.from(values));
  }

  /** tfjs's Relu6, min(max(x, 0), 6): ONNX's Clip between two constant bounds. */
  private relu6(input: string, out: string): void {
    this.add('Clip', [input, this.scalar(0), this.scalar(6)], [out]);
  }

  /** A float constant, one initializer per value however often it is used. */
  private scalar(value: number): string {
    let name = this.scalars.get(value);
    if (!name) this.scalars.set(value, (name = this.float('scalar', [], Float32Array.of(value))));
    return name;
  }

  private float(base: string, dims: number[], values: Float32Array): string {
    const name = this.fresh(base);
    this.initializers.push({ name, dims, values });
    return name;
  }

  private int64s(base: string, values: number[]): string {
    const name = this.fresh(base);
    this.initializers.push({ name, dims: [values.length], values: BigInt64Array.from(values, BigInt) });
    return name;
  }

  // --- nodes and attributes ---

  private add(op: string, inputs: string[], outputs: string[], attributes?: OnnxNode['attributes']): void {
    this.nodes.push({ op, inputs, outputs, ...(attributes ? { attributes } : {}) });
  }

  private fresh(base: string): string {
    return `${base}#${this.unique++}`;
  }

  private attr(n: GraphNode, key: string): Attr | undefined {
    return (n.attr as Record<string, Attr> | undefined)?.[key];
  }

  private ints(n: GraphNode, key: string): number[] {
    return (this.attr(n, key)?.list?.i ?? []).map(Number);
  }

  private strings(n: GraphNode, key: string): string[] {
    return (this.attr(n, key)?.list?.s ?? []).map(decoded);
  }

  private format(n: GraphNode): string {
    const s = this.attr(n, 'data_format')?.s;
    return s ? decoded(s) : 'NHWC';
  }

  private padding(n: GraphNode): { auto_pad: string } {
    const s = this.attr(n, 'padding')?.s;
    const padding = s ? decoded(s) : '';
    // TensorFlow's SAME puts an odd padding's extra row and column after: ONNX's SAME_UPPER.
    if (padding === 'SAME') return { auto_pad: 'SAME_UPPER' };
    if (padding === 'VALID') return { auto_pad: 'VALID' };
    throw new ConversionError(`${n.name}: padding ${padding || 'missing'} is not known`);
  }
}

/** A constant's values with its axes permuted (`perm[i]`: the source axis of output axis i). */
export function permuted({ shape, values }: { shape: number[]; values: Float32Array | Int32Array }, perm: number[]): Float32Array {
  const outShape = perm.map((p) => shape[p]!);
  const strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  const sourceStrides = perm.map((p) => strides[p]!);
  const out = new Float32Array(values.length);
  const index = new Array<number>(outShape.length).fill(0);
  let source = 0;
  for (let o = 0; o < out.length; o++) {
    out[o] = values[source]!;
    // Advance the output index like an odometer, keeping the source offset in step.
    for (let d = outShape.length - 1; d >= 0; d--) {
      index[d]!++;
      source += sourceStrides[d]!;
      if (index[d]! < outShape[d]!) break;
      source -= sourceStrides[d]! * outShape[d]!;
      index[d] = 0;
    }
  }
  return out;
}
