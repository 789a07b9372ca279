/**
 * The golden oracle's samples: for one (op, dtype, layout), the OpInfo's samples in that layout, its error inputs
 * (contiguous) and its gradient samples (float64, contiguous). Samples are made with a seed of (op, dtype) alone,
 * so every device and layout replays the same logical values and the recorded goldens serve them all.
 */
import { hashString, type Layout, type OpInfo, type SampleInput } from '../../../op_db/index.ts';
import { gradSamplesIn } from '../grad.ts';
import type { DType, Storage } from '../runtime_face.ts';
import { withLayout } from '../sample_io.ts';
import { fingerprint, type GoldenCall, type GoldenKind, serializeCall } from './serialize.ts';

export interface GoldenRequest {
  readonly kind: GoldenKind;
  /** The request's index in the instance's list (samples, then error inputs, then gradient samples). */
  readonly k: number;
  readonly sample: SampleInput;
  readonly call: GoldenCall;
  readonly storageIndex: Map<Storage, number>;
  readonly fp: string;
}

/** The seed of an (op, dtype)'s golden samples. */
export function goldenSeed(info: OpInfo, dtype: DType): number {
  return hashString(`golden:${info.name}:${dtype}`);
}

/** Whether an (op, dtype) records gradients: float64 where the OpInfo claims backward for it. */
export function recordsGradients(info: OpInfo, dtype: DType, layout: Layout): boolean {
  return (
    dtype === 'float64' &&
    layout === 'contiguous' &&
    info.flags.supportsAutograd &&
    info.backwardDtypes.cpu.includes('float64')
  );
}

export function goldenRequests(
  info: OpInfo,
  dtype: DType,
  layout: Layout,
  kinds: readonly GoldenKind[] = ['sample', 'error', 'grad'],
): GoldenRequest[] {
  const ctx = { device: 'cpu' as const, dtype, requiresGrad: false, seed: goldenSeed(info, dtype) };
  const out: GoldenRequest[] = [];
  const add = (kind: GoldenKind, samples: readonly SampleInput[]) =>
    samples.forEach((sample) => {
      const { call, storageIndex } = serializeCall(sample);
      out.push({ kind, k: out.length, sample, call, storageIndex, fp: fingerprint(info.name, kind, call) });
    });
  if (kinds.includes('sample'))
    add(
      'sample',
      info.sampleInputs(ctx).map((s) => withLayout(s, layout)),
    );
  if (kinds.includes('error') && layout === 'contiguous')
    add(
      'error',
      info.errorInputs(ctx).map((e) => e.sample),
    );
  // A sample that draws has PyTorch's mask in its gradient (gradcheck checks the runtime's against its own).
  if (kinds.includes('grad') && recordsGradients(info, dtype, layout))
    add(
      'grad',
      gradSamplesIn(info, ctx).filter((s) => !s.draws),
    );
  return out;
}
