/**
 * SavedVariable: a tensor a backward formula needs, with the version it had when saved. Unpacking after an
 * in-place op changed it raises E_INPLACE_VERSION with PyTorch's message.
 */
import { DTYPE_INFO, InplaceVersionError, type Tensor } from '../core/index.ts';

export class SavedVariable {
  private tensor: Tensor | null;
  private readonly version: number;

  constructor(
    tensor: Tensor,
    /** Which output of which node it is, for the error message ("output 0 of ExpBackward0"). */
    private readonly describe: string,
  ) {
    this.tensor = tensor;
    this.version = tensor.version;
  }

  unpack(nodeName: string): Tensor {
    const t = this.tensor;
    if (t === null) throw new Error(`internal: saved tensor of ${nodeName} used after release`);
    if (t.version !== this.version) {
      throw new InplaceVersionError(
        `one of the variables needed for gradient computation has been modified by an inplace operation: [${DTYPE_INFO[t.dtype].torchName}Tensor [${t.shape.join(', ')}]], which is ${this.describe}, is at version ${t.version}; expected version ${this.version} instead.`,
        {
          op: nodeName,
          arg: 'saved tensor',
          got: `version ${t.version}`,
          expected: `version ${this.version}`,
        },
      );
    }
    return t;
  }

  release(): void {
    this.tensor = null;
  }
}
