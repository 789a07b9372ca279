/**
 * Batched submission: launches record compute passes into one pending command encoder, submitted when work must
 * be visible (a readback, an upload, a synchronize) or when MAX_PENDING passes are queued. One submit per op
 * costs ~120 µs on the software adapter; batched passes cost ~50 µs.
 *
 * Ordering rule: queue.writeBuffer runs before any command still pending in the encoder, so every write that
 * could alias a pending command's buffers (uploads into reused blocks, grows) calls `flush()` first. Parameter
 * words use their own pool, whose blocks return only after the submit that reads them.
 */
/// <reference types="@webgpu/types" />
import { type Block, CachingAllocator } from './allocator.ts';
import { gpu, onSynchronize } from './device.ts';

const MAX_PENDING = 64;
let encoder: GPUCommandEncoder | null = null;
let pending = 0;
let inFlightParams: Block[] = [];
const params = new CachingAllocator(() => gpu());

export const queueStats = { passes: 0, submits: 0 };

/** The pending encoder, for recording one more pass. */
export function recordPass(
  paramWords: Uint32Array,
  body: (pass: GPUComputePassEncoder, params: GPUBuffer) => void,
): void {
  const device = gpu();
  const block = params.allocate(paramWords.byteLength);
  device.queue.writeBuffer(block.buffer, 0, paramWords.buffer, paramWords.byteOffset, paramWords.byteLength);
  inFlightParams.push(block);
  encoder ??= device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  body(pass, block.buffer);
  pass.end();
  queueStats.passes++;
  if (++pending >= MAX_PENDING) flush();
}

/** Submits the pending passes (no-op when none). */
export function flush(): void {
  if (!encoder) return;
  gpu().queue.submit([encoder.finish()]);
  encoder = null;
  pending = 0;
  queueStats.submits++;
  for (const b of inFlightParams) params.free(b);
  inFlightParams = [];
}

onSynchronize(flush);
