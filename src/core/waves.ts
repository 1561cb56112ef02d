/**
 * Splits one turn's calls into waves, keeping their order: consecutive parallel-safe calls share a
 * wave and run together; every other call is a wave of its own and runs after the previous wave.
 */
export function planWaves<T>(calls: T[], parallelSafe: (call: T) => boolean): T[][] {
  const waves: T[][] = [];
  for (const call of calls) {
    const last = waves[waves.length - 1];
    if (last && parallelSafe(call) && last.every(parallelSafe)) last.push(call);
    else waves.push([call]);
  }
  return waves;
}
