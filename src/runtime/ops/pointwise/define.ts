/** Wires a PointwiseRow into the operator table: promotion + meta (broadcast shape, layout) + CPU loop. */

import { defineDerivative } from '../../autograd/index.ts';
import { type PointwiseMemo, runPointwise } from '../../backends/cpu/index.ts';
import { computeValue, runPointwiseGPU, type WgslValue } from '../../backends/webgpu/index.ts';
import {
  broadcastAll,
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  getDefaultDType,
  NotImplementedError,
  pointwiseOutputStrides,
  promotionOperand,
  resultType,
  type Scalar,
  type Tensor,
  toRealDType,
} from '../../core/index.ts';
import { type BoundArgs, operatorTable, parseSchema } from '../../dispatch/index.ts';
import { asScalar, gpuOperands } from '../op_helpers.ts';
import { defineStructured, type OutSpec } from '../structured.ts';
import type { PointwiseRow } from './row.ts';

export function defaultSchema(row: PointwiseRow): string {
  if (row.schema) return row.schema;
  if (row.arity === 1) return `${row.name}(Tensor self) -> Tensor`;
  return `${row.name}.Tensor(Tensor self, Tensor other) -> Tensor`;
}

interface Promoted {
  readonly compute: DType;
  readonly value: DType;
  /** The cpu loops compiled for this signature, by output dtype (filled by runPointwise). */
  readonly memo: PointwiseMemo;
}

interface Plan extends Promoted {
  readonly row: PointwiseRow;
  readonly inputs: Tensor[];
}

function supportedKinds(row: PointwiseRow) {
  if (row.kinds) return row.kinds;
  const k: string[] = [];
  if (row.num) k.push('bool', 'int', 'float');
  if (row.complex) k.push('complex');
  return k;
}

export function pointwisePlan(
  baseRow: PointwiseRow,
  tensorArgs: readonly string[],
  args: BoundArgs,
  op: string,
): Plan {
  const row = baseRow.select?.(args) ?? baseRow;
  const inputs = tensorArgs.map((n) => args[n] as Tensor);
  return { row, inputs, ...promoteInputs(row, inputs, op) };
}

/** The compute and value dtypes of `row` over `inputs` (result_type + the row's promotion kind), or the dtype error. */
function promoteInputs(row: PointwiseRow, inputs: readonly Tensor[], op: string): Promoted {
  const promoted = inputs.filter((_, i) => !row.boolInputs?.includes(i));
  let compute = resultType(promoted.map(promotionOperand));
  const kind = DTYPE_INFO[compute].kind;
  if (
    (row.promotion === 'intToFloat' || row.promotion === 'intToFloatComplexToFloat') &&
    (kind === 'int' || kind === 'bool')
  ) {
    compute = getDefaultDType();
  }
  const refused = row.refuse?.[compute];
  if (refused) throw new DTypeUnsupportedError(refused, { op, arg: 'self', got: compute });
  if (
    !supportedKinds(row).includes(DTYPE_INFO[compute].kind) ||
    (compute === 'int64' && !row.big && kind !== 'bool')
  ) {
    throw new DTypeUnsupportedError(`"${op}" not implemented for '${DTYPE_INFO[compute].torchName}'`, {
      op,
      arg: 'self',
      got: compute,
      expected: `a dtype of kind ${supportedKinds(row).join('/')}`,
    });
  }
  let value = compute;
  if (row.promotion === 'alwaysBool') value = 'bool';
  else if (
    (row.promotion === 'complexToFloat' || row.promotion === 'intToFloatComplexToFloat') &&
    DTYPE_INFO[compute].kind === 'complex'
  ) {
    value = toRealDType(compute);
  }
  return { compute, value, memo: { loops: {} } };
}

const DTYPE_CODE = new Map(Object.keys(DTYPE_INFO).map((d, i) => [d as DType, i]));

/** Effective rows a planner caches promotions for; `select` returns static rows, this bounds a misbehaving one. */
const MAX_CACHED_ROWS = 16;

/**
 * Plans from a cache, per effective row (after `select`), keyed by what result_type reads: each input's dtype,
 * whether it is 0-dim or a wrapped number, and the default dtype. A repeated call signature promotes nothing and
 * reuses its compiled cpu loops (the eager hot path); errors are never cached, so they raise on every call.
 */
function cachedPlanner(baseRow: PointwiseRow, tensorArgs: readonly string[]) {
  const caches = new Map<PointwiseRow, Map<number, Promoted>>();
  return (args: BoundArgs, op: string): Plan => {
    const row = baseRow.select?.(args) ?? baseRow;
    const inputs: Tensor[] = new Array(tensorArgs.length);
    let key = DTYPE_CODE.get(getDefaultDType())!;
    for (let k = 0; k < tensorArgs.length; k++) {
      const t = args[tensorArgs[k]] as Tensor;
      inputs[k] = t;
      key = key * 128 + DTYPE_CODE.get(t.dtype)! * 4 + (t.ndim === 0 ? 1 : 0) + (t.isWrappedNumber ? 2 : 0);
    }
    let cache = caches.get(row);
    if (cache === undefined) {
      if (caches.size >= MAX_CACHED_ROWS) return { row, inputs, ...promoteInputs(row, inputs, op) };
      cache = new Map();
      caches.set(row, cache);
    }
    let promoted = cache.get(key);
    if (promoted === undefined) {
      promoted = promoteInputs(row, inputs, op);
      cache.set(key, promoted);
    }
    return { row, inputs, compute: promoted.compute, value: promoted.value, memo: promoted.memo };
  };
}

function scalarParam(s: Scalar | Tensor, compute: DType): unknown {
  // A 0-dim tensor bound to a Scalar parameter (alpha=tensor(2)) is read like item().
  const sc = asScalar(s);
  const dom = DTYPE_INFO[compute].domain;
  if (dom === 'big') return sc.toBigInt();
  if (dom === 'complex') return [sc.toNumber(), sc.imag];
  return sc.toNumber();
}

const simdScalars = (want: readonly number[] | undefined, got: readonly unknown[]) =>
  (want ?? []).every((v, i) => got[i] === v);

/** What a fusing compiler needs of a pointwise overload: its row and which arguments are tensors / scalars. */
export interface PointwiseInfo {
  readonly row: PointwiseRow;
  readonly tensorArgs: readonly string[];
  readonly scalarNames: readonly string[];
}
/** Functional pointwise overloads by qualified name (`add.Tensor`), for the compiler's fusion pass. */
export const POINTWISE_OVERLOADS = new Map<string, PointwiseInfo>();

export function definePointwise(row: PointwiseRow): void {
  const schema = defaultSchema(row);
  const parsed = parseSchema(schema);
  const tensorArgs = parsed.args.filter((a) => a.type.base === 'Tensor').map((a) => a.name);
  const scalarNames = row.scalars ?? [];
  POINTWISE_OVERLOADS.set(parsed.qualifiedName, { row, tensorArgs, scalarNames });
  const planFor = cachedPlanner(row, tensorArgs);
  const meta = (args: BoundArgs, op: string): OutSpec => {
    const plan = planFor(args, op);
    const { inputs, value } = plan;
    const shape = broadcastAll(
      inputs.map((t) => t.shape),
      op,
    );
    const real = inputs.filter((t) => !t.isWrappedNumber);
    return { shape, dtype: value, strides: pointwiseOutputStrides(shape, real), plan };
  };
  // Only rows that can raise mid-loop (or select one that can) look for a precheck on the hot path.
  const mayPrecheck = row.precheck !== undefined || row.select !== undefined;
  const cpu = (args: BoundArgs, out: Tensor, op: string, spec: OutSpec) => {
    const { row: r, inputs, compute, value, memo } = (spec.plan as Plan | undefined) ?? planFor(args, op);
    const dom = DTYPE_INFO[compute].domain;
    const intLike = DTYPE_INFO[compute].kind !== 'float';
    const fn =
      dom === 'big'
        ? r.big
        : dom === 'complex'
          ? r.complex
          : compute === 'bool' && r.bool
            ? r.bool
            : intLike && r.int
              ? r.int
              : compute === 'bfloat16' && r.bf16
                ? r.bf16
                : r.num;
    const targets = inputs.map((_, i) => (row.boolInputs?.includes(i) ? 'bool' : compute));
    if (mayPrecheck && r.precheck && out.numel > 0) r.precheck(inputs, compute, op);
    const scalars = scalarNames.map((n) => scalarParam(args[n] as Scalar, compute));
    runPointwise(
      {
        fn: fn!,
        targets,
        value,
        scalars,
        scalarDomainComplex: dom === 'complex',
        simd: r.simd && value === compute && simdScalars(r.simd.scalars, scalars) ? r.simd.op : undefined,
        memo,
      },
      out,
      inputs,
    );
  };
  const webgpu = (args: BoundArgs, out: Tensor, op: string, spec: OutSpec) => {
    const { row: r, inputs, compute } = (spec.plan as Plan | undefined) ?? planFor(args, op);
    const vt = computeValue(compute, op);
    const expr = wgslExpr(r, compute, vt, op);
    const loads: WgslValue[] = inputs.map((_, i) => (row.boolInputs?.includes(i) ? 'bool' : vt));
    const operands = gpuOperands(inputs);
    runPointwiseGPU(
      {
        expr,
        exprType: r.promotion === 'alwaysBool' ? 'bool' : vt,
        loads,
        scalars: scalarNames.map((n) => ({
          value: asScalar(args[n] as Scalar | Tensor).toNumber(),
          type: vt,
        })),
      },
      out,
      operands,
    );
  };
  defineStructured({
    schema,
    tags: { family: 'pointwise' },
    inplace: row.inplace ?? true,
    out: row.out ?? true,
    outOverload: row.outOverload,
    inplaceOverload: row.inplaceOverload,
    meta,
    impl: { cpu, webgpu: row.wgsl || row.select ? webgpu : undefined },
  });
  const inplace = row.inplace ?? true;
  for (const a of row.aliases ?? []) {
    operatorTable.alias(a, row.name);
    // A plain alias has its in-place form too (torch.negative_, t.fix_()).
    if (inplace && !a.includes('.')) operatorTable.alias(`${a}_`, `${row.name}_`);
  }
  operatorTable.declare({
    [row.name]: row.variants ?? 'function, method',
    ...(inplace ? { [`${row.name}_`]: 'method' } : {}),
  });
  if (row.derivative) defineDerivative(row.name, row.derivative);
}

/** The row's WGSL expression for a compute dtype (bool compute uses `bool` if given, else i32's). */
export function wgslExpr(row: PointwiseRow, compute: DType, vt: WgslValue, op: string): string {
  const w = row.wgsl;
  const e =
    typeof w === 'string' ? w : compute === 'bool' ? (w?.bool ?? w?.i32) : vt === 'f32' ? w?.f32 : w?.i32;
  if (e !== undefined && vt === 'f32' && row.arity < 3 && row.promotion !== 'alwaysBool') {
    const own = typeof w === 'object' && w.nan === 'own';
    if (!own)
      return row.arity === 1 ? `select(${e}, a, is_nan(a))` : `select(${e}, a + b, is_nan(a) || is_nan(b))`;
  }
  if (e === undefined) {
    throw new NotImplementedError(`"${op}" has no webgpu kernel for '${DTYPE_INFO[compute].torchName}'`, {
      op,
      arg: 'self',
      got: compute,
      expected: 'a dtype the op has a WGSL expression for',
    });
  }
  return e;
}
