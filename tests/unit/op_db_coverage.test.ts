/** op_db completeness: exactly one OpInfo per operator-table op; skips carry reasons; no stale rules. */
import { describe, expect, test } from 'vitest';
import { opDb, REACHED_THROUGH, WEBGPU_DTYPES } from '../../op_db/index.ts';
import { expandMatrix, staleRules } from '../../src/ci/index.ts';
import { callOp, operatorTable } from '../../src/runtime/index.ts';

/** Op names in the table, with in-place `name_` folded into `name` when the functional op exists. */
function tableOps(): string[] {
  const names = new Set(operatorTable.names());
  return [...names].filter((n) => !(n.endsWith('_') && names.has(n.slice(0, -1)))).sort();
}

describe('op_db', () => {
  test('every op in the operator table has exactly one OpInfo (missing ones listed by name)', () => {
    const covered = new Map<string, string[]>();
    for (const info of opDb) covered.set(info.op, [...(covered.get(info.op) ?? []), info.name]);
    const missing = tableOps().filter((n) => !covered.has(n) && !(n in REACHED_THROUGH));
    const duplicated = [...covered].filter(([, infos]) => infos.length > 1);
    // An OpInfo may also name one aten overload of a table op (clamp.Tensor), for what only that overload checks.
    const overloadOfTableOp = (n: string) =>
      n.includes('.') && tableOps().includes(n.split('.')[0]) && operatorTable.resolve(n).length === 1;
    const unknown = [...covered.keys()].filter((n) => !tableOps().includes(n) && !overloadOfTableOp(n));
    expect({ missing, duplicated, unknown }).toEqual({ missing: [], duplicated: [], unknown: [] });
  });

  test('an op without an OpInfo of its own is called by the samples of the OpInfo it names', () => {
    for (const [op, { info: name, reason }] of Object.entries(REACHED_THROUGH)) {
      expect(reason.length, op).toBeGreaterThan(10);
      expect(
        opDb.some((i) => i.op === op),
        `${op} has an OpInfo: not a reached-through op`,
      ).toBe(false);
      const info = opDb.find((i) => i.name === name);
      expect(info, `${op}: ${name}`).toBeDefined();
      // Count calls of every overload of the op (any of its kernels, composite included) while the samples run.
      let calls = 0;
      const entries = [op, `${op}_`]
        .filter((n) => operatorTable.names().includes(n))
        .flatMap((n) => operatorTable.resolve(n));
      const restore: (() => void)[] = [];
      for (const e of entries) {
        const composite = e.composite;
        if (composite) {
          e.composite = (ks, args, o) => {
            calls++;
            return composite(ks, args, o);
          };
          restore.push(() => (e.composite = composite));
        }
        for (const [key, kernel] of [...e.kernels]) {
          e.kernels.set(key, (ks, args, o) => {
            calls++;
            return kernel(ks, args, o);
          });
          restore.push(() => e.kernels.set(key, kernel));
        }
      }
      try {
        for (const dtype of info!.dtypes.cpu) {
          if (calls > 0) break;
          const ctx = { device: 'cpu', dtype, requiresGrad: false, seed: 0 } as const;
          for (const s of info!.sampleInputs(ctx)) {
            callOp(info!.op, [s.input, ...s.args], { ...s.kwargs });
            // The method form too, where the OpInfo has one (Tensor.norm is a Python definition of its own).
            const method = info!.variants.method
              ? (s.input as unknown as Record<string, (...a: unknown[]) => unknown>)[info!.op]
              : undefined;
            method?.call(s.input, ...s.args, { ...s.kwargs });
          }
        }
      } finally {
        for (const r of restore) r();
      }
      expect(calls, `${op} is not called by ${name}'s samples`).toBeGreaterThan(0);
    }
  });

  test('OpInfo names are unique and ids are stable PyTorch-style', () => {
    const names = opDb.map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    const [inst] = expandMatrix('full', {
      op: ['add'],
      oracle: ['reference'],
      dtype: ['float32'],
      layout: ['transposed'],
    });
    expect(inst.id).toBe('test_reference_add_cpu_float32_transposed_eager');
    const [relu] = expandMatrix('full', {
      op: ['nn.functional.relu'],
      oracle: ['reference'],
      dtype: ['float32'],
      layout: ['contiguous'],
    });
    expect(relu.id).toBe('test_reference_nn_functional_relu_cpu_float32_contiguous_eager');
  });

  test('every op runs on webgpu or its OpInfo says why not; claims stay within what webgpu computes', () => {
    const neither = opDb.filter((i) => i.dtypes.webgpu.length === 0 && !i.unsupported.webgpu?.trim());
    expect(neither.map((i) => i.name)).toEqual([]);
    for (const info of opDb) {
      // int64 may be claimed where an op only moves words (views, copies): webgpu stores it exactly.
      const outside = info.dtypes.webgpu.filter((d) => !WEBGPU_DTYPES.includes(d) && d !== 'int64');
      expect(outside, info.name).toEqual([]);
      if (info.unsupported.webgpu) expect(info.dtypes.webgpu, info.name).toEqual([]);
    }
  });

  test('every skip/xfail has a reason, and none is stale', () => {
    for (const info of opDb)
      for (const r of info.skips)
        expect(r.reason.trim().length, `${info.name} ${JSON.stringify(r)}`).toBeGreaterThan(10);
    expect(staleRules()).toEqual([]);
  });

  test('a stale rule is reported, an xfail rule marks its instances', () => {
    const [add] = opDb.filter((o) => o.name === 'add');
    const fake = {
      ...add,
      skips: [
        {
          kind: 'xfail' as const,
          dtype: 'float32' as const,
          layout: 'strided' as const,
          reason: 'test rule matching instances',
        },
        {
          kind: 'skip' as const,
          device: 'meta' as const,
          oracle: 'gradcheck' as const,
          reason: 'test rule that matches no instance',
        },
      ],
    };
    const stale = staleRules([fake]);
    expect(stale.map((s) => s.rule.reason)).toEqual(['test rule that matches no instance']);
    const marked = expandMatrix('full', {}, [fake]).filter((i) => i.rule?.kind === 'xfail');
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.every((i) => i.dtype === 'float32' && i.layout === 'strided')).toBe(true);
  });

  test('the pull tier has at least 10,000 instances', () => {
    expect(expandMatrix('pull').length).toBeGreaterThanOrEqual(10_000);
  });
});
