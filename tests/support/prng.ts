// A small seeded PRNG (mulberry32) so generated test input is reproducible from its seed.
export type Random = {
  /** In [0, 1). */
  next: () => number;
  /** An integer in [0, n). */
  int: (n: number) => number;
  pick: <T>(items: readonly T[]) => T;
  chance: (probability: number) => boolean;
};

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)]!, chance: (probability) => next() < probability };
}

/** The seed every run uses unless FUZZ_SEED gives another: a suite must not pass or fail by the draw. */
export const DEFAULT_FUZZ_SEED = 20_261_124;

/** FUZZ_SEED from the environment (another draw, or a replay), else the fixed DEFAULT_FUZZ_SEED. */
export function seedFromEnv(name = "FUZZ_SEED"): number {
  const given = process.env[name];
  if (given === undefined || given === "") return DEFAULT_FUZZ_SEED;
  const seed = Number(given);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`${name} must be an integer from 0 to 4294967295`);
  return seed;
}
