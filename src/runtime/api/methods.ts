/**
 * Installs torch-like methods on Tensor (`a.add(b)`, `a.add_(b)`, `a.view(-1)`, `a.to('float64')`) for every
 * op whose definition declares the method variant, so every method is the same `callOp` as its function.
 */
import { Tensor } from '../core/index.ts';
import { operatorTable } from '../dispatch/index.ts';
import { invoke, type OpArg } from './call.ts';
import { apiNames, type ListName, type MethodName } from './names.ts';

type Single = (...args: OpArg[]) => Tensor;
type Multi = (...args: OpArg[]) => Tensor[];

type TensorMethods = { [K in MethodName]: K extends ListName ? Multi : Single };

declare module '../core/tensor.ts' {
  interface Tensor extends TensorMethods {
    /** `t.to('float64')`, `t.to('meta')`, `t.to({dtype, device})`. */
    to(...args: OpArg[]): Tensor;
    type(dtype: string): Tensor;
    float(): Tensor;
    double(): Tensor;
    half(): Tensor;
    long(): Tensor;
    int(): Tensor;
    bool(): Tensor;
  }
}

let installed = false;

export function installTensorMethods(): void {
  if (installed) return;
  installed = true;
  const proto = Tensor.prototype as unknown as Record<string, unknown>;
  const define = (method: string, op: string) => {
    proto[method] = function (this: Tensor, ...args: OpArg[]) {
      return invoke(op, [this, ...args]);
    };
  };
  const methods = apiNames().methods;
  for (const n of methods) define(n, operatorTable.apiTarget(n, 'method'));
  // PyTorch's plain aliases of Tensor methods are methods too (`t.negative()`, `t.negative_()`, `t.fix_()`).
  const isMethod = new Set(methods);
  for (const [alias, target] of operatorTable.aliasEntries())
    if (!alias.includes('.') && isMethod.has(target) && !(alias in proto)) define(alias, target);
  // Tensor.where(condition, other) is torch.where(condition, self, other): the receiver is not the first argument.
  proto.where = function (this: Tensor, condition: unknown, ...rest: OpArg[]) {
    return invoke('where', [condition, this, ...rest]);
  };
  define('type', 'to');
  const cast = (method: string, dtype: string) => {
    proto[method] = function (this: Tensor) {
      return invoke('to', [this, dtype]);
    };
  };
  cast('float', 'float32');
  cast('double', 'float64');
  cast('half', 'float16');
  cast('long', 'int64');
  cast('int', 'int32');
  cast('bool', 'bool');
}
