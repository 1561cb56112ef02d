export interface Kill {
  /** Of the reference run's duration, counted from the previous kill (or from the takeover). */
  fraction: number;
  afterTakeover: boolean;
}

/**
 * Two or three kills. The first at a random point of the reference run (up to 80 % of it: a trial run
 * alongside another can be faster than the reference); in 30 % of trials a second one soon after the
 * restart, often before the new worker took over; then one more at a random point of what is left
 * once a new worker has taken the session over. Each trial thus puts two kills into running work,
 * for the cost of one session and its worker starts.
 */
export function killPlan(seed: number): Kill[] {
  const rng = mulberry32(seed);
  const round = (f: number) => Math.round(f * 1000) / 1000;
  const first = 0.02 + 0.78 * rng();
  const kills = [{ fraction: round(first), afterTakeover: false }];
  if (rng() < 0.3) kills.push({ fraction: round(0.5 * rng()), afterTakeover: false });
  kills.push({ fraction: round((0.95 - first) * rng()), afterTakeover: true });
  return kills;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same kill plan. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
