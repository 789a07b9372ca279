/**
 * The register block of a tiled product on webgpu, shared by matmul and convolution (whose kernel is the same
 * product over an im2col view): each thread of a TX x TY workgroup owns rm x rn accumulators, strided by the
 * workgroup's size over a tile of As (rows x TK) and Bs (TK x cols) in workgroup memory, and stores each one
 * through `store`. The caller writes the tiles' loads and the loop over K's tiles around `step`.
 */
export interface RegisterBlock {
  /** The accumulators' declarations, at the top of main. */
  readonly accs: string;
  /** One K tile's products, between the barriers that follow the tiles' loads. */
  readonly step: string;
  /** Each accumulator stored (the caller's statement), after the loop over K's tiles. */
  readonly stores: string;
}

export function registerBlock(o: {
  readonly rm: number;
  readonly rn: number;
  readonly tx: number;
  readonly ty: number;
  readonly tk: number;
  /** The accumulators' WGSL type and its zero. */
  readonly type: string;
  readonly zero: string;
  readonly store: (i: number, j: number, acc: string) => string;
}): RegisterBlock {
  const accs: string[] = [];
  const fma: string[] = [];
  const stores: string[] = [];
  for (let i = 0; i < o.rm; i++) fma.push(`      let a${i} = As[lid.y + ${i * o.ty}u][q];`);
  for (let j = 0; j < o.rn; j++) fma.push(`      let b${j} = Bs[q][lid.x + ${j * o.tx}u];`);
  for (let i = 0; i < o.rm; i++)
    for (let j = 0; j < o.rn; j++) {
      accs.push(`  var acc${i}_${j}: ${o.type} = ${o.zero};`);
      fma.push(`      acc${i}_${j} = acc${i}_${j} + a${i} * b${j};`);
      stores.push(o.store(i, j, `acc${i}_${j}`));
    }
  const step = `    workgroupBarrier();
    for (var q = 0u; q < ${o.tk}u; q++) {
${fma.join('\n')}
    }
    workgroupBarrier();`;
  return { accs: accs.join('\n'), step, stores: stores.join('\n') };
}
