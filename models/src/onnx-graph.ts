/**
 * Reading an ONNX file's graph without onnxruntime: the protobuf wire format
 * (varints and length-delimited fields) decoded for the few ONNX messages the
 * plain-TypeScript models need (ModelProto.graph → nodes, initializers, inputs,
 * outputs; TensorProto as float32). Field numbers are those of onnx.proto.
 */
import { readFileSync } from 'node:fs';
import { ModelFormatError } from './errors.js';

export interface OnnxNode {
  readonly opType: string;
  readonly inputs: string[];
  readonly outputs: string[];
  /** Integer, float and integer-list attributes by name. */
  readonly attrs: Map<string, number | number[]>;
}

export interface OnnxTensor {
  readonly name: string;
  readonly dims: number[];
  /** The values as float32, whatever the stored type (float32, int64, int32 or double). */
  readonly data: Float32Array;
}

export interface OnnxGraph {
  readonly file: string;
  readonly nodes: OnnxNode[];
  readonly initializers: Map<string, OnnxTensor>;
  readonly inputs: string[];
  readonly outputs: string[];
}

const enum Wire {
  Varint = 0,
  Fixed64 = 1,
  Bytes = 2,
  Fixed32 = 5,
}

/** One protobuf message's fields, in order: [field number, wire type, value]. */
type Field = [number, Wire, number | Uint8Array];

class Reader {
  pos = 0;
  constructor(
    private readonly buf: Uint8Array,
    private readonly fail: (why: string) => Error,
  ) {}

  /** A varint read as a signed 64-bit integer (ONNX stores negative ints in ten bytes). */
  varint(): number {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.buf.length) throw this.fail('truncated varint');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return Number(BigInt.asIntN(64, result));
      shift += 7n;
    }
    throw this.fail('bad varint');
  }

  fields(): Field[] {
    const out: Field[] = [];
    while (this.pos < this.buf.length) {
      const key = this.varint();
      const field = Math.floor(key / 8);
      const wire = (key & 7) as Wire;
      if (wire === Wire.Varint) out.push([field, wire, this.varint()]);
      else if (wire === Wire.Bytes) {
        const len = this.varint();
        if (this.pos + len > this.buf.length) throw this.fail('truncated field');
        out.push([field, wire, this.buf.subarray(this.pos, this.pos + len)]);
        this.pos += len;
      } else if (wire === Wire.Fixed32 || wire === Wire.Fixed64) {
        const n = wire === Wire.Fixed32 ? 4 : 8;
        if (this.pos + n > this.buf.length) throw this.fail('truncated field');
        out.push([field, wire, this.buf.subarray(this.pos, this.pos + n)]);
        this.pos += n;
      } else throw this.fail(`unsupported wire type ${wire}`);
    }
    return out;
  }
}

const utf8 = new TextDecoder();

export function parseOnnx(file: string, bytes: Uint8Array = readFileSync(file)): OnnxGraph {
  const fail = (why: string) => new ModelFormatError(`ONNX model ${file} cannot be read: ${why}`, file);
  const fieldsOf = (b: Uint8Array) => new Reader(b, fail).fields();
  const str = (v: number | Uint8Array) => (v instanceof Uint8Array ? utf8.decode(v) : '');
  const bytesOf = (v: number | Uint8Array) => {
    if (!(v instanceof Uint8Array)) throw fail('expected a length-delimited field');
    return v;
  };
  /** A repeated scalar field, packed or not. */
  const varints = (fs: Field[], num: number): number[] => {
    const out: number[] = [];
    for (const [f, w, v] of fs) {
      if (f !== num) continue;
      if (w === Wire.Varint) out.push(v as number);
      else {
        const r = new Reader(bytesOf(v), fail);
        const b = bytesOf(v);
        while (r.pos < b.length) out.push(r.varint());
      }
    }
    return out;
  };

  const tensor = (b: Uint8Array): OnnxTensor => {
    const fs = fieldsOf(b);
    let name = '';
    let type = 0;
    let raw: Uint8Array | undefined;
    const floats: number[] = [];
    for (const [f, w, v] of fs) {
      if (f === 8) name = str(v);
      else if (f === 2) type = v as number;
      else if (f === 9) raw = bytesOf(v);
      else if (f === 4) {
        const bytes = bytesOf(v);
        if (w === Wire.Fixed32) floats.push(new DataView(bytes.buffer, bytes.byteOffset, 4).getFloat32(0, true));
        else for (let i = 0; i + 4 <= bytes.length; i += 4) floats.push(new DataView(bytes.buffer, bytes.byteOffset + i, 4).getFloat32(0, true));
      }
    }
    const dims = varints(fs, 1);
    const count = dims.reduce((a, d) => a * d, 1);
    let data: Float32Array;
    if (raw) {
      const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
      const size = type === 1 || type === 6 ? 4 : type === 7 || type === 11 ? 8 : 0;
      if (!size) throw fail(`tensor ${name} has unsupported data type ${type}`);
      if (raw.byteLength !== count * size) throw fail(`tensor ${name} holds ${raw.byteLength} bytes, expected ${count * size}`);
      data = new Float32Array(count);
      for (let i = 0; i < count; i++) {
        const at = i * size;
        data[i] =
          type === 1 ? view.getFloat32(at, true)
          : type === 6 ? view.getInt32(at, true)
          : type === 7 ? Number(view.getBigInt64(at, true))
          : view.getFloat64(at, true);
      }
    } else if (type === 1) data = Float32Array.from(floats);
    else if (type === 7 || type === 6) data = Float32Array.from(varints(fs, type === 7 ? 7 : 5));
    else throw fail(`tensor ${name} has unsupported data type ${type}`);
    if (data.length !== count) throw fail(`tensor ${name} holds ${data.length} values, expected ${count}`);
    return { name, dims, data };
  };

  const node = (b: Uint8Array): OnnxNode => {
    const inputs: string[] = [];
    const outputs: string[] = [];
    const attrs = new Map<string, number | number[]>();
    let opType = '';
    for (const [f, , v] of fieldsOf(b)) {
      if (f === 1) inputs.push(str(v));
      else if (f === 2) outputs.push(str(v));
      else if (f === 4) opType = str(v);
      else if (f === 5) {
        const afs = fieldsOf(bytesOf(v));
        let aname = '';
        let value: number | number[] | undefined;
        for (const [af, aw, av] of afs) {
          if (af === 1) aname = str(av);
          else if (af === 3 && aw === Wire.Varint) value = av as number;
          else if (af === 2 && aw === Wire.Fixed32) {
            const bytes = bytesOf(av);
            value = new DataView(bytes.buffer, bytes.byteOffset, 4).getFloat32(0, true);
          }
        }
        const ints = varints(afs, 8);
        if (ints.length) value = ints;
        if (value !== undefined) attrs.set(aname, value);
      }
    }
    return { opType, inputs, outputs, attrs };
  };

  const valueName = (b: Uint8Array) => str(fieldsOf(b).find(([f]) => f === 1)?.[2] ?? new Uint8Array());

  const model = fieldsOf(bytes);
  const graphField = model.find(([f]) => f === 7);
  if (!graphField) throw fail('no graph');
  const nodes: OnnxNode[] = [];
  const initializers = new Map<string, OnnxTensor>();
  const inputs: string[] = [];
  const outputs: string[] = [];
  for (const [f, , v] of fieldsOf(bytesOf(graphField[2]))) {
    if (f === 1) nodes.push(node(bytesOf(v)));
    else if (f === 5) {
      const t = tensor(bytesOf(v));
      initializers.set(t.name, t);
    } else if (f === 11) inputs.push(valueName(bytesOf(v)));
    else if (f === 12) outputs.push(valueName(bytesOf(v)));
  }
  return { file, nodes, initializers, inputs: inputs.filter((n) => !initializers.has(n)), outputs };
}
