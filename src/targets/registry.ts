/**
 * The targets opgate knows, by name: each loads its runtime only when a run selects it (a test of the project's own
 * runtime never imports tfjs).
 */
import { JAX_DEPARTURES, JAX_OPS, jaxAdapter } from './jax/index.ts';
import { ORT_DEPARTURES, ORT_OPS, ortAdapter } from './onnxruntime/index.ts';
import { type Target, TargetError } from './target.ts';
import { TFJS_DEPARTURES, TFJS_OPS, tfjsAdapter } from './tfjs/index.ts';

const TARGETS: Record<string, () => Target> = {
  'tfjs-cpu': () => ({ adapter: tfjsAdapter('cpu'), ops: TFJS_OPS, departures: TFJS_DEPARTURES }) as Target,
  'tfjs-wasm': () => ({ adapter: tfjsAdapter('wasm'), ops: TFJS_OPS, departures: TFJS_DEPARTURES }) as Target,
  'ort-wasm': () => ({ adapter: ortAdapter(), ops: ORT_OPS, departures: ORT_DEPARTURES }) as Target,
  'jax-js': () => ({ adapter: jaxAdapter(), ops: JAX_OPS, departures: JAX_DEPARTURES }) as Target,
};

/**
 * Adds a target (an opgate.config.ts's, or a test's): a fifth runtime is its op rows and a small adapter. A name
 * taken is E_DUPLICATE_TARGET.
 */
export function registerTarget(target: Target): void {
  const name = target.adapter.name;
  if (Object.hasOwn(TARGETS, name))
    throw new TargetError('E_DUPLICATE_TARGET', `a target named '${name}' is already registered`);
  TARGETS[name] = () => target;
}

export const targetNames = (): string[] => Object.keys(TARGETS);
export const isTargetName = (name: string): boolean => Object.hasOwn(TARGETS, name);

const described = new Map<string, Target>();
/** A target's rows and departures, without loading its runtime. */
export function targetOf(name: string): Target {
  let t = described.get(name);
  if (!t) {
    const make = TARGETS[name];
    if (!make)
      throw new TargetError(
        'E_UNKNOWN_TARGET',
        `unknown target '${name}' (known: ${targetNames().join(', ')})`,
      );
    t = make();
    described.set(name, t);
  }
  return t;
}

export interface LoadedTarget {
  readonly target: Target;
  /** The loaded runtime module the rows call. */
  readonly rt: unknown;
}

const loaded = new Map<string, Promise<LoadedTarget>>();
/** The target with its runtime loaded (once per process). */
export function loadTarget(name: string): Promise<LoadedTarget> {
  let p = loaded.get(name);
  if (!p) {
    const target = targetOf(name);
    p = target.adapter.load().then((rt) => ({ target, rt }));
    loaded.set(name, p);
  }
  return p;
}

/** The targets a command selected (`--target`): their instances join the matrix, in this process and its workers. */
export function selectedTargets(): string[] {
  return (process.env.OPGATE_TARGETS ?? '').split(',').filter((n) => n !== '' && isTargetName(n));
}
