/**
 * mm, bmm, mv, dot and matmul. Each validates like its PyTorch 1.13 counterpart (matmul follows _matmul_impl's
 * dot / mv / mm / fold / batched paths, so its errors name the shapes those paths see); every op then runs
 * the same strided batched kernel (gemm.ts), with 1-D operands seen as a row or a column through stride 0.
 */
import { matmulGPU } from '../../backends/webgpu/index.ts';
import {
  broadcastShapes,
  broadcastStridesFor,
  contiguousStrides,
  DeviceMismatchError,
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  numelOf,
  ResultTypeError,
  ShapeMismatchError,
  type Tensor,
} from '../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../dispatch/index.ts';
import { notImplementedFor } from '../op_helpers.ts';
import { defineStructured, type OutSpec } from '../structured.ts';
import { gemm, type HalfOrder, type MatrixView } from './gemm.ts';
import { productOrder, shouldFold } from './product_order.ts';

const tags = { family: 'linalg' };
const torchName = (d: DType) => DTYPE_INFO[d].torchName;

function sameDType(a: DType, b: DType, op: string): void {
  if (a !== b) {
    throw new DTypeUnsupportedError(`expected scalar type ${torchName(a)} but found ${torchName(b)}`, {
      op,
      arg: 'mat2',
      got: b,
      expected: a,
    });
  }
}

function mmChecks(a: readonly number[], b: readonly number[], da: DType, db: DType, op: string): void {
  if (a[1] !== b[0]) {
    throw new ShapeMismatchError(
      `mat1 and mat2 shapes cannot be multiplied (${a[0]}x${a[1]} and ${b[0]}x${b[1]})`,
      {
        op,
        arg: 'mat2',
        got: [...b],
        expected: `${a[1]} rows`,
      },
    );
  }
  sameDType(da, db, op);
}

function mvChecks(mat: readonly number[], vec: number, dm: DType, dv: DType, op: string): void {
  if (mat[1] !== vec) {
    throw new ShapeMismatchError(`size mismatch, got ${mat[0]}, ${mat[0]}x${mat[1]},${vec}`, {
      op,
      arg: 'vec',
      got: vec,
      expected: mat[1],
    });
  }
  sameDType(dm, dv, op);
}

function dotChecks(a: Tensor, b: Tensor, op: string): void {
  if (a.ndim !== 1 || b.ndim !== 1) {
    throw new ShapeMismatchError(`1D tensors expected, but got ${a.ndim}D and ${b.ndim}D tensors`, {
      op,
      arg: 'tensor',
      got: [a.ndim, b.ndim],
      expected: [1, 1],
    });
  }
  if (a.dtype !== b.dtype) {
    throw new DTypeUnsupportedError(
      `dot : expected both vectors to have same dtype, but found ${torchName(a.dtype)} and ${torchName(b.dtype)}`,
      {
        op,
        arg: 'tensor',
        got: b.dtype,
        expected: a.dtype,
      },
    );
  }
  if (a.shape[0] !== b.shape[0]) {
    throw new ShapeMismatchError(
      `inconsistent tensor size, expected tensor [${a.shape[0]}] and src [${b.shape[0]}] to have the same number of elements, but got ${a.shape[0]} and ${b.shape[0]} elements respectively`,
      { op, arg: 'tensor', got: b.shape[0], expected: a.shape[0] },
    );
  }
}

function bmmChecks(bs: number, k1: number, bs2: number, k2: number, da: DType, db: DType, op: string): void {
  if (bs2 !== bs || k2 !== k1) {
    throw new ShapeMismatchError(
      `Expected size for first two dimensions of batch2 tensor to be: [${bs}, ${k1}] but got: [${bs2}, ${k2}].`,
      {
        op,
        arg: 'batch2',
        got: [bs2, k2],
        expected: [bs, k1],
      },
    );
  }
  sameDType(da, db, op);
}

const rank = (t: Tensor, want: number, msg: string, arg: string, op: string) => {
  if (t.ndim !== want) throw new ShapeMismatchError(msg, { op, arg, got: t.ndim, expected: want });
};

/** The output of a uniform batched product of a and b (1-D operands contribute no n / m dim). */
function productShape(a: Tensor, b: Tensor, op: string): number[] {
  const batch = broadcastShapes(a.shape.slice(0, -2), b.shape.slice(0, -2), op);
  return [
    ...batch,
    ...(a.ndim >= 2 ? [a.shape[a.ndim - 2]] : []),
    ...(b.ndim >= 2 ? [b.shape[b.ndim - 1]] : []),
  ];
}

/** Validates matmul along PyTorch's dispatch path; returns the output shape and the kernel the path runs. */
function matmulPlan(a: Tensor, b: Tensor, op: string): { shape: number[]; kernel: string } {
  const [da, db] = [a.ndim, b.ndim];
  if (da === 0 || db === 0) {
    throw new ShapeMismatchError(
      `both arguments to matmul need to be at least 1D, but they are ${da}D and ${db}D`,
      { op, arg: 'other', got: [da, db], expected: '>= 1D' },
    );
  }
  const last = (t: Tensor, i = 1) => t.shape[t.ndim - i];
  let kernel = 'bmm';
  if (da === 1 && db === 1) {
    dotChecks(a, b, op);
    kernel = 'dot';
  } else if (da === 2 && db === 1) {
    mvChecks(a.shape, b.shape[0], a.dtype, b.dtype, op);
    kernel = 'addmv_impl_cpu';
  } else if (da <= 2 && db === 2) {
    mmChecks(da === 1 ? [1, a.shape[0]] : a.shape, b.shape, a.dtype, b.dtype, op);
    kernel = 'addmm_impl_cpu_';
  } else if (shouldFold(a, db)) {
    const rows = numelOf(a.shape.slice(0, -1));
    if (db === 2) mmChecks([rows, last(a)], b.shape, a.dtype, b.dtype, op);
    else mvChecks([rows, last(a)], b.shape[0], a.dtype, b.dtype, op);
    kernel = db === 2 ? 'addmm_impl_cpu_' : 'addmv_impl_cpu';
  } else if (shouldFold(b, da)) {
    // PyTorch multiplies b.mT (folded) by a.t() / a and transposes the result back.
    const rows = numelOf(b.shape.slice(0, -2)) * last(b);
    if (da === 2) mmChecks([rows, last(b, 2)], [last(a), last(a, 2)], b.dtype, a.dtype, op);
    else mvChecks([rows, last(b, 2)], a.shape[0], b.dtype, a.dtype, op);
    kernel = da === 2 ? 'addmm_impl_cpu_' : 'addmv_impl_cpu';
  } else {
    const batch = broadcastShapes(a.shape.slice(0, -2), b.shape.slice(0, -2), op);
    const bs = numelOf(batch);
    const k2 = db > 1 ? last(b, 2) : b.shape[0];
    bmmChecks(bs, last(a), bs, k2, a.dtype, b.dtype, op);
  }
  return { shape: productShape(a, b, op), kernel };
}

/** Views a (1-D: one row) and b (1-D: one column) as batches of matrices over out's batch dims and runs gemm. */
function runProduct(out: Tensor, a: Tensor, b: Tensor, kernel: string, op: string, order: HalfOrder): void {
  const batch = out.shape.slice(0, Math.max(a.ndim, b.ndim, 2) - 2);
  const nb = batch.length;
  const n = a.ndim >= 2 ? a.shape[a.ndim - 2] : 1;
  const k = a.shape[a.ndim - 1];
  const m = b.ndim >= 2 ? b.shape[b.ndim - 1] : 1;
  if (out.device !== a.device) {
    // A 0-dim cpu out= passes the common-device check (it may join as a wrapped scalar) but cannot be written.
    throw new DeviceMismatchError(
      `Expected out tensor to have device ${a.device}, but got ${out.device} instead`,
      {
        op,
        arg: 'out',
        got: out.device,
        expected: a.device,
      },
    );
  }
  if (numelOf(batch) * n * m === 0) return;
  const dt = out.dtype;
  if (kernel === 'dot' || k > 0) {
    if (dt === 'bool' || dt === 'float16') throw notImplementedFor(kernel, dt, op);
  }
  const view = (t: Tensor, rows: boolean): MatrixView => {
    const nd = t.ndim;
    const batchStrides = broadcastStridesFor(
      t.shape.slice(0, Math.max(nd - 2, 0)),
      t.strides.slice(0, Math.max(nd - 2, 0)),
      batch,
    );
    if (nd === 1) return { t, batchStrides, rs: rows ? 0 : t.strides[0], cs: rows ? t.strides[0] : 0 };
    return { t, batchStrides, rs: t.strides[nd - 2], cs: t.strides[nd - 1] };
  };
  const outView = (t: Tensor): MatrixView => {
    const os = t.strides;
    return {
      t,
      batchStrides: os.slice(0, nb),
      rs: a.ndim >= 2 ? os[nb] : 0,
      cs: b.ndim >= 2 ? os[os.length - 1] : 0,
    };
  };
  if (out.device !== 'webgpu') {
    gemm(outView(out), view(a, true), view(b, false), batch, n, k, m, order);
    return;
  }
  matmulGPU(outView(out), view(a, true), view(b, false), batch, n, k, m, op);
}

type Checker = (a: Tensor, b: Tensor, op: string) => { shape: number[]; kernel: string };

const CHECKS: Record<'mm' | 'bmm' | 'mv' | 'dot' | 'matmul', [string, string, Checker]> = {
  mm: [
    'self',
    'mat2',
    (a, b, op) => {
      rank(a, 2, 'self must be a matrix', 'self', op);
      rank(b, 2, 'mat2 must be a matrix', 'mat2', op);
      mmChecks(a.shape, b.shape, a.dtype, b.dtype, op);
      return { shape: [a.shape[0], b.shape[1]], kernel: 'addmm_impl_cpu_' };
    },
  ],
  bmm: [
    'self',
    'mat2',
    (a, b, op) => {
      rank(a, 3, 'batch1 must be a 3D tensor', 'self', op);
      rank(b, 3, 'batch2 must be a 3D tensor', 'mat2', op);
      bmmChecks(a.shape[0], a.shape[2], b.shape[0], b.shape[1], a.dtype, b.dtype, op);
      return { shape: [a.shape[0], a.shape[1], b.shape[2]], kernel: 'bmm' };
    },
  ],
  mv: [
    'self',
    'vec',
    (a, b, op) => {
      if (a.ndim !== 2 || b.ndim !== 1) {
        throw new ShapeMismatchError(`vector + matrix @ vector expected, got 1, ${a.ndim}, ${b.ndim}`, {
          op,
          arg: 'vec',
          got: [a.ndim, b.ndim],
          expected: [2, 1],
        });
      }
      mvChecks(a.shape, b.shape[0], a.dtype, b.dtype, op);
      return { shape: [a.shape[0]], kernel: 'addmv_impl_cpu' };
    },
  ],
  dot: [
    'self',
    'tensor',
    (a, b, op) => {
      dotChecks(a, b, op);
      return { shape: [], kernel: 'dot' };
    },
  ],
  matmul: ['self', 'other', matmulPlan],
};

/** dot.out refuses another dtype with its own message. */
function dotOutRule(op: string, result: DType, out: DType): void {
  if (result !== out) {
    throw new ResultTypeError(
      `result dtype ${torchName(out)} does not match input dtype ${torchName(result)}`,
      { op, arg: 'out', got: out, expected: result },
    );
  }
}

/** The Python variants of the ops registered here (native_functions.yaml's `variants`; see dispatch/variants.ts). */
export const LINALG_API = {
  matmul: 'function, method',
  mm: 'function, method',
  bmm: 'function, method',
  mv: 'function, method',
  dot: 'function, method',
} as const satisfies ApiDecl;

export function registerLinalg(): void {
  for (const [name, [first, second, check]] of Object.entries(CHECKS)) {
    const meta = (args: BoundArgs, op: string): OutSpec => {
      const { shape } = check(args[first] as Tensor, args[second] as Tensor, op);
      return { shape, dtype: (args[first] as Tensor).dtype, strides: contiguousStrides(shape) };
    };
    // One impl for both devices: runProduct picks gemm (cpu) or the tiled WGSL kernel (webgpu).
    const cpu = (args: BoundArgs, out: Tensor, op: string) => {
      const [a, b] = [args[first] as Tensor, args[second] as Tensor];
      const { kernel } = check(a, b, op);
      const order = out.dtype === 'bfloat16' ? productOrder(name, a, b, out) : 'once';
      runProduct(out, a, b, kernel, op, order);
    };
    const params = `Tensor ${first}, Tensor ${second}`;
    defineStructured({
      schema: `${name}(${params}) -> Tensor`,
      tags,
      out: true,
      outRule: name === 'dot' ? dotOutRule : 'exact',
      meta,
      impl: { cpu, webgpu: cpu },
    });
  }
  operatorTable.declare(LINALG_API);
}
