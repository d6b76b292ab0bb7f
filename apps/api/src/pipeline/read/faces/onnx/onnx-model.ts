import protobuf from 'protobufjs';

/**
 * An ONNX model as the converter builds it (`tfjs-to-onnx.ts`), and its encoding: the subset of
 * onnx.proto (github.com/onnx/onnx, onnx/onnx.proto, field numbers as there) that a graph of
 * float tensors with constant weights needs. Encoded with protobufjs.
 */
export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  /** Integers, floats, strings and integer lists: every attribute the converter writes. */
  attributes?: Record<string, number | string | number[]>;
}

export interface OnnxInitializer {
  name: string;
  dims: number[];
  values: Float32Array | BigInt64Array;
}

export interface OnnxGraph {
  nodes: OnnxNode[];
  initializers: OnnxInitializer[];
  /** The graph's one input: a float tensor, its first dimension free (`N`). */
  input: { name: string; dims: number[] };
  /** Float outputs, in the order `execute` returns them. */
  outputs: string[];
}

/** The operator set the converter's nodes are written for (Pad's pads as an input, ReduceMean's axes as an attribute). */
export const OPSET = 13;
const IR_VERSION = 8;

const TensorType = { FLOAT: 1, INT64: 7 } as const;
const AttributeType = { FLOAT: 1, INT: 2, STRING: 3, INTS: 7 } as const;

const repeated = (type: string, id: number) => ({ rule: 'repeated', type, id });
const root = protobuf.Root.fromJSON({
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            irVersion: { type: 'int64', id: 1 },
            producerName: { type: 'string', id: 2 },
            graph: { type: 'GraphProto', id: 7 },
            opsetImport: repeated('OperatorSetIdProto', 8),
          },
        },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        GraphProto: {
          fields: {
            node: repeated('NodeProto', 1),
            name: { type: 'string', id: 2 },
            initializer: repeated('TensorProto', 5),
            input: repeated('ValueInfoProto', 11),
            output: repeated('ValueInfoProto', 12),
          },
        },
        NodeProto: {
          fields: {
            input: repeated('string', 1),
            output: repeated('string', 2),
            name: { type: 'string', id: 3 },
            opType: { type: 'string', id: 4 },
            attribute: repeated('AttributeProto', 5),
          },
        },
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            s: { type: 'bytes', id: 4 },
            ints: repeated('int64', 8),
            type: { type: 'int32', id: 20 },
          },
        },
        TensorProto: {
          fields: {
            dims: repeated('int64', 1),
            dataType: { type: 'int32', id: 2 },
            name: { type: 'string', id: 8 },
            rawData: { type: 'bytes', id: 9 },
          },
        },
        ValueInfoProto: { fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } } },
        TypeProto: {
          fields: { tensorType: { type: 'Tensor', id: 1 } },
          nested: { Tensor: { fields: { elemType: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } } },
        },
        TensorShapeProto: {
          fields: { dim: repeated('Dimension', 1) },
          nested: { Dimension: { fields: { dimValue: { type: 'int64', id: 1 }, dimParam: { type: 'string', id: 2 } } } },
        },
      },
    },
  },
});
const ModelProto = root.lookupType('onnx.ModelProto');

function attribute(name: string, value: number | string | number[]) {
  if (Array.isArray(value)) return { name, ints: value, type: AttributeType.INTS };
  if (typeof value === 'string') return { name, s: Buffer.from(value, 'utf8'), type: AttributeType.STRING };
  return Number.isInteger(value) ? { name, i: value, type: AttributeType.INT } : { name, f: value, type: AttributeType.FLOAT };
}

const floatTensor = (name: string, shape?: (number | string)[]) => ({
  name,
  type: {
    tensorType: {
      elemType: TensorType.FLOAT,
      ...(shape ? { shape: { dim: shape.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } : {}),
    },
  },
});

/** The model's bytes, as `onnxruntime` loads them. */
export function encodeOnnxModel(graph: OnnxGraph, producer: string): Uint8Array {
  const message = ModelProto.fromObject({
    irVersion: IR_VERSION,
    producerName: producer,
    opsetImport: [{ domain: '', version: OPSET }],
    graph: {
      name: producer,
      node: graph.nodes.map((n, i) => ({
        input: n.inputs,
        output: n.outputs,
        name: `${n.op}_${i}`,
        opType: n.op,
        attribute: Object.entries(n.attributes ?? {}).map(([k, v]) => attribute(k, v)),
      })),
      initializer: graph.initializers.map((t) => ({
        name: t.name,
        dims: t.dims,
        dataType: t.values instanceof Float32Array ? TensorType.FLOAT : TensorType.INT64,
        rawData: new Uint8Array(t.values.buffer, t.values.byteOffset, t.values.byteLength),
      })),
      input: [floatTensor(graph.input.name, ['N', ...graph.input.dims.slice(1)])],
      output: graph.outputs.map((o) => floatTensor(o)),
    },
  });
  return ModelProto.encode(message).finish();
}
