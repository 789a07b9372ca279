/**
 * Random number generators (torch.Generator): MT19937, the engine of PyTorch's CPU generator, seeded like
 * std::mt19937(seed). Every random op draws from an explicit `generator=` or from the process-wide default one,
 * which `manualSeed` reseeds (torch.manual_seed): the same seed gives the same bits, on every device (a webgpu
 * op draws on the host and uploads). The streams are not PyTorch's bit for bit: its samplers (MKL's bernoulli,
 * vectorised uniform fills) consume the engine differently.
 */

const N = 624;
const M = 397;

export class Generator {
  private readonly mt = new Uint32Array(N);
  private index = N;
  private seed = 0;

  constructor(seed = 67280421310721) {
    this.manualSeed(seed);
  }

  /** torch.Generator.manual_seed: resets the state from a seed (its low 32 bits, as std::mt19937 takes it). */
  manualSeed(seed: number | bigint): this {
    const s = Number(BigInt.asUintN(32, BigInt(seed)));
    this.seed = typeof seed === 'bigint' ? Number(seed) : seed;
    this.mt[0] = s;
    for (let i = 1; i < N; i++) {
      const prev = this.mt[i - 1] ^ (this.mt[i - 1] >>> 30);
      // 1812433253 * prev + i, in 32-bit arithmetic.
      this.mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
    return this;
  }

  initialSeed(): number {
    return this.seed;
  }

  /** A copy of the whole state (get_state / set_state). */
  getState(): { readonly mt: Uint32Array; readonly index: number; readonly seed: number } {
    return { mt: this.mt.slice(), index: this.index, seed: this.seed };
  }

  setState(state: { readonly mt: Uint32Array; readonly index: number; readonly seed: number }): void {
    this.mt.set(state.mt);
    this.index = state.index;
    this.seed = state.seed;
  }

  /** The next 32-bit output of the engine. */
  nextUint32(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** A double uniform on [0, 1) with 53 random bits (genrand_res53: two draws). */
  random(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  private twist(): void {
    const mt = this.mt;
    for (let i = 0; i < N; i++) {
      const y = (mt[i] & 0x80000000) | (mt[(i + 1) % N] & 0x7fffffff);
      mt[i] = mt[(i + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
    }
    this.index = 0;
  }
}

const defaultGenerator = new Generator();

/** The process-wide generator random ops use when no `generator=` is given (torch.default_generator). */
export function getDefaultGenerator(): Generator {
  return defaultGenerator;
}

/** torch.manual_seed: reseeds the default generator. */
export function manualSeed(seed: number | bigint): Generator {
  return defaultGenerator.manualSeed(seed);
}
