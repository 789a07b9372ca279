/**
 * aten's _ctc_loss_backward as an OpInfo of its own: ctc_loss's gradient is otherwise only compared with PyTorch's
 * in float64 contiguous golden requests, while this puts the beta recursion under the reference oracle in every
 * layout (of `grad`, its primary input) and reads the saved tensors through views: log_probs transposed from
 * [N, T, C], log_alpha, the losses and the targets sliced from bigger tensors. The reference enumerates every
 * alignment (C^T paths per entry): grad[t, b, c] = (exp(lp[t, b, c]) - P(path_t = c | target) ) * grad[b], the
 * gradient through the log_softmax that made log_probs, as aten returns it; 0 past an entry's input length.
 */
import { callOp, type DType, type Tensor } from '../../../../src/runtime/index.ts';
import { exact, indexOf } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { rng } from '../../../make.ts';
import { type RefTensor, refTensor } from '../../../refs/tensor.ts';
import type { OpInfo, RefSample, SampleContext, SampleInput } from '../../../types.ts';

const DTYPES: readonly DType[] = ['float32', 'float64'];
const [T, N, C] = [4, 2, 3];

/** log_softmax rows of random values over the last dim, shaped `shape` (computed here in float64). */
function logSoftmaxRows(ctx: SampleContext, shape: number[]): Tensor {
  const r = rng(ctx.seed ^ 0xc7d);
  const width = shape[shape.length - 1];
  const values: number[] = [];
  for (let row = 0; row < shape.reduce((a, b) => a * b, 1) / width; row++) {
    const x = Array.from({ length: width }, () => 4 * r() - 2);
    const lse = Math.log(x.reduce((s, v) => s + Math.exp(v), 0));
    values.push(...x.map((v) => v - lse));
  }
  return exact(ctx, values, shape, ctx.dtype);
}

/** `x` as the last rows of a bigger tensor (a view at a storage offset), its first row junk. */
const sliced = (x: Tensor): Tensor =>
  (callOp('cat', [[callOp('full_like', [x.narrow(0, 0, 1), 7]), x]]) as Tensor).narrow(0, 1, x.shape[0]);

function backwardSamples(ctx: SampleContext): SampleInput[] {
  // The forward runs in float64 (any sample dtype, claimed or not, gets its inputs), then everything is cast.
  const lp64 = logSoftmaxRows({ ...ctx, dtype: 'float64' }, [T, N, C]);
  const [il, tl] = [
    [4, 3],
    [2, 1],
  ];
  const cast = (x: Tensor) => x.to(ctx.dtype);
  const forward = (targets: Tensor, blank: number) =>
    (callOp('_ctc_loss', [lp64, targets, il, tl, blank]) as Tensor[]).map(cast);
  const grad = exact(ctx, [0.5, -1.5], [2], ctx.dtype);
  const lp = cast(lp64);
  const targets = indexOf(ctx, [1, 2, 2, 0], [2, 2]);
  const [nll, alpha] = forward(targets, 0);
  // The same log_probs stored as [N, T, C], and the saved tensors as slices of bigger ones (targets without 1).
  const lpNTC = (callOp('contiguous', [lp.transpose(0, 1)]) as Tensor).transpose(0, 1);
  const targets2 = indexOf(ctx, [0, 2, 2, 0], [2, 2]);
  const [nll2, alpha2] = forward(targets2, 1);
  return [
    sample(grad, [lp, targets, il, tl, nll, alpha, 0], {}, { name: 'padded targets, batch 2' }),
    sample(
      grad,
      [lpNTC, sliced(targets2), il, tl, sliced(nll2), sliced(alpha2), 1],
      { zero_infinity: false },
      { name: 'log_probs [N, T, C] transposed, saved tensors at storage offsets, blank=1' },
    ),
  ];
}

const values = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : Array.from((v as RefTensor).re));

/** Per entry, by enumerating its alignments: P(path_t = c, collapse(path) = target), over their total. */
function ctcBackwardRef(s: RefSample): RefTensor {
  const g = s.input;
  const lp = s.args[0] as RefTensor;
  const targets = s.args[1] as RefTensor;
  const [il, tl] = [values(s.args[2]), values(s.args[3])];
  const blank = Number(s.args[6]);
  const [steps, batch, labels] = lp.shape;
  const width = targets.shape[1];
  const at = (t: number, b: number, c: number) => (t * batch + b) * labels + c;
  const out = new Float64Array(steps * batch * labels);
  for (let b = 0; b < batch; b++) {
    const n = il[b];
    const target = Array.from(targets.re.subarray(b * width, b * width + tl[b]));
    const byStep = new Float64Array(n * labels);
    let total = 0;
    const path = new Array<number>(n).fill(0);
    for (let k = 0; k < labels ** n; k++) {
      let rest = k;
      for (let i = 0; i < n; i++) {
        path[i] = rest % labels;
        rest = Math.floor(rest / labels);
      }
      const collapsed = path.filter((v, i) => v !== blank && (i === 0 || v !== path[i - 1]));
      if (collapsed.length !== target.length || collapsed.some((v, i) => v !== target[i])) continue;
      const p = Math.exp(path.reduce((acc, v, i) => acc + lp.re[at(i, b, v)], 0));
      total += p;
      path.forEach((v, i) => {
        byStep[i * labels + v] += p;
      });
    }
    for (let t = 0; t < n; t++)
      for (let c = 0; c < labels; c++)
        out[at(t, b, c)] = (Math.exp(lp.re[at(t, b, c)]) - byStep[t * labels + c] / total) * g.re[b];
  }
  return refTensor(lp.shape, lp.dtype, out);
}

export const NN_CTC_LOSS_BACKWARD_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: '_ctc_loss_backward',
    family: 'loss',
    dtypes: DTYPES,
    unsupported: { webgpu: 'the alpha and beta recursions run on the host (no webgpu kernel)' },
    unsupportedOverloads: {
      '_ctc_loss_backward.Tensor':
        'tensor lengths are read on the host as lists (as ctc_loss.Tensor does); only the IntList overload is registered',
      '_ctc_loss_backward.out': 'the out= form is not implemented',
    },
    sampleInputs: backwardSamples,
    ref: ctcBackwardRef,
    resultDType: (s) => (s.args[0] as Tensor).dtype,
    skips: [
      {
        kind: 'skip',
        oracle: 'reference',
        layout: 'expanded',
        reason:
          'the expanded layout changes the values of log_probs, log_alpha and the losses each on its own: they no ' +
          'longer come from one forward, and the kernel reads the saved ones (the reference recomputes them)',
      },
    ],
  }),
];
