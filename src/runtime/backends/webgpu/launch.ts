/**
 * Running a generated WGSL kernel: pipelines are cached by source text; each launch writes its parameter words
 * (shapes, strides, offsets, scalars) into a pooled buffer and records one compute pass (queue.ts batches the
 * submits). Launches are queued: nothing here waits for the GPU — readback does.
 */
/// <reference types="@webgpu/types" />

import { gpu } from './device.ts';
import { recordPass } from './queue.ts';

const pipelines = new Map<string, GPUComputePipeline>();

export const launchStats = { launches: 0, compiles: 0 };

function pipeline(code: string): GPUComputePipeline {
  let p = pipelines.get(code);
  if (!p) {
    const device = gpu();
    const module = device.createShaderModule({ code });
    p = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    pipelines.set(code, p);
    launchStats.compiles++;
  }
  return p;
}

export const WORKGROUP = 64;
const MAX_GROUPS = 65535;

/** Workgroup counts covering `threads` (2-D once one dimension runs out); kernels use `linearIndex()`. */
export function gridFor(threads: number, perGroup = WORKGROUP): [number, number] {
  const groups = Math.ceil(threads / perGroup);
  if (groups <= MAX_GROUPS) return [groups, 1];
  return [MAX_GROUPS, Math.ceil(groups / MAX_GROUPS)];
}

/** WGSL for the flat thread index under `gridFor` (declare `gid` and `nwg` builtins in main). */
export const linearIndex = (perGroup = WORKGROUP) => `gid.x + gid.y * nwg.x * ${perGroup}u`;

export interface Launch {
  readonly code: string;
  /** Buffers in binding order after binding 0 (the parameter words). */
  readonly buffers: readonly GPUBuffer[];
  readonly params: Uint32Array;
  readonly grid: readonly [number, number];
}

export function launch(l: Launch): void {
  const device = gpu();
  const p = pipeline(l.code);
  recordPass(l.params.length ? l.params : new Uint32Array(1), (pass, params) => {
    const entries: GPUBindGroupEntry[] = [{ binding: 0, resource: { buffer: params } }];
    l.buffers.forEach((buffer, i) => {
      entries.push({ binding: i + 1, resource: { buffer } });
    });
    pass.setPipeline(p);
    pass.setBindGroup(0, device.createBindGroup({ layout: p.getBindGroupLayout(0), entries }));
    pass.dispatchWorkgroups(l.grid[0], l.grid[1]);
  });
  launchStats.launches++;
}

/** Parameter words: u32 values, f32/i32 scalars stored bit for bit. */
export class Params {
  private readonly words: number[] = [];
  private readonly f = new Float32Array(1);
  private readonly u = new Uint32Array(this.f.buffer);

  get length(): number {
    return this.words.length;
  }
  u32(v: number): this {
    this.words.push(v >>> 0);
    return this;
  }
  i32(v: number): this {
    this.words.push(v | 0);
    return this;
  }
  f32(v: number): this {
    this.f[0] = v;
    this.words.push(this.u[0]);
    return this;
  }
  array(): Uint32Array {
    return Uint32Array.from(this.words, (w) => w >>> 0);
  }
}
