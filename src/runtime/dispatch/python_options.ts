/**
 * What PyTorch's Python argument parser adds to, or checks on, every factory (a function whose schema takes
 * TensorOptions: dtype, layout, device, pin_memory). `requires_grad` is not an aten argument: the parser takes it
 * off and sets it on the result (a float or complex one only). `layout` is accepted as torch.strided only (the
 * runtime has no sparse or mkldnn tensors) and `pin_memory=True` is refused (pinned host memory needs CUDA; a
 * CPU-only PyTorch refuses it too), each with a coded error before anything runs.
 */
import {
  AutogradError,
  DTYPE_INFO,
  InvalidArgumentError,
  NotImplementedError,
  Tensor,
} from '../core/index.ts';
import type { BoundArgs } from './binding.ts';
import { type OperatorEntry, operatorTable } from './table.ts';

/** Whether `name` is a factory: some overload takes TensorOptions (OperatorEntry.tensorOptions). */
export function takesTensorOptions(name: string): boolean {
  return operatorTable.resolve(name).some((e) => e.tensorOptions);
}

/**
 * A factory call's keywords without `requires_grad`, and its value (undefined when not given, or not a factory:
 * binding then refuses the keyword as aten would).
 */
export function splitRequiresGrad(
  name: string,
  kwargs: Readonly<Record<string, unknown>>,
): [Readonly<Record<string, unknown>>, boolean | undefined] {
  if (kwargs.requires_grad === undefined || !takesTensorOptions(name)) return [kwargs, undefined];
  const { requires_grad, ...rest } = kwargs;
  if (requires_grad !== null && typeof requires_grad !== 'boolean')
    throw new InvalidArgumentError('requires_grad must be a bool', {
      op: name,
      arg: 'requires_grad',
      got: typeof requires_grad,
      expected: 'a bool (or None)',
    });
  return [rest, requires_grad ?? false];
}

const LAYOUTS = new Set([
  'strided',
  'sparse_coo',
  'sparse_csr',
  'sparse_csc',
  'sparse_bsr',
  'sparse_bsc',
  '_mkldnn',
]);

/** A bound factory call's layout and pin_memory, checked before it runs. */
export function checkTensorOptions(op: OperatorEntry, a: BoundArgs): void {
  const name = op.schema.name;
  const layout = a.layout;
  if (layout !== undefined && layout !== null && layout !== 'strided') {
    if (!LAYOUTS.has(layout as string))
      throw new InvalidArgumentError(`unknown layout '${layout}'`, {
        op: name,
        arg: 'layout',
        got: String(layout),
        expected: `one of ${[...LAYOUTS].join(', ')}`,
      });
    throw new NotImplementedError(`layout=torch.${layout}: only torch.strided tensors are implemented`, {
      op: name,
      arg: 'layout',
      got: String(layout),
      expected: 'strided',
    });
  }
  if (a.pin_memory === true)
    throw new NotImplementedError(
      'pin_memory=True: pinned host memory needs CUDA (a CPU-only PyTorch refuses it too: "Pinned memory requires CUDA")',
      { op: name, arg: 'pin_memory', got: 'True', expected: 'False or None' },
    );
}

/** Sets requires_grad on a factory's result as the Python parser does (`out.requires_grad_(requires_grad)`). */
export function applyRequiresGrad(out: unknown, requiresGrad: boolean | undefined, op: string): unknown {
  if (!requiresGrad || !(out instanceof Tensor)) return out;
  const kind = DTYPE_INFO[out.dtype].kind;
  if (kind !== 'float' && kind !== 'complex')
    throw new AutogradError('Only Tensors of floating point and complex dtype can require gradients', {
      op,
      arg: 'requires_grad',
      got: `True for ${out.dtype}`,
      expected: 'a floating point or complex dtype',
    });
  return out.requiresGrad_(true);
}
