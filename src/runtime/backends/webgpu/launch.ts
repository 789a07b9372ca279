/**
 * Running a generated WGSL kernel: pipelines are cached by source text; each launch writes its parameter words
 * (shapes, strides, offsets, scalars) into a pooled buffer and submits one compute pass. Launches are queued:
 * nothing here waits for the GPU — readback does.
 */
/// <reference types="@webgpu/types" />

import { gpu } from './device.ts';
import { allocator } from './memory.ts';

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
  const words = l.params.length ? l.params : new Uint32Array(1);
  const paramBlock = allocator.allocate(words.byteLength);
  device.queue.writeBuffer(paramBlock.buffer, 0, words.buffer, words.byteOffset, words.byteLength);
  const entries: GPUBindGroupEntry[] = [{ binding: 0, resource: { buffer: paramBlock.buffer } }];
  l.buffers.forEach((buffer, i) => {
    entries.push({ binding: i + 1, resource: { buffer } });
  });
  const group = device.createBindGroup({ layout: p.getBindGroupLayout(0), entries });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(p);
  pass.setBindGroup(0, group);
  pass.dispatchWorkgroups(l.grid[0], l.grid[1]);
  pass.end();
  device.queue.submit([enc.finish()]);
  // Safe to reuse at once: later writes to this block are queued after this submission.
  allocator.free(paramBlock);
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
