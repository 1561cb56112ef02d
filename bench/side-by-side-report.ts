import { fmt, median, range } from './stats';
import type { Pair, SideBySideResult } from './side-by-side';
import type { ColdResult } from './cold';

/** The side-by-side table: durable-agent | Gemini CLI | ratio | goal | met, one row per measure. */
export function sideBySideTable(s: SideBySideResult): string {
  const perTurn = (values: number[]) => `${fmt(median(values), 1)} ms (${range(values)})`;
  const met = (ratio: number) => (ratio <= 1 ? 'yes' : '**no**');
  const row = (measure: string, ours: string, theirs: string, ratio: number) =>
    `| ${measure} | ${ours} | ${theirs} | **${fmt(ratio)}×** | ≤ 1.0× | ${met(ratio)} |`;
  const r = (pair: Pair) => median(pair.ours) / median(pair.gemini);
  const b = s.requestBytes;
  const kib = (bytes: number, requests: number) => `${fmt(bytes / 1024, 0)} KiB in ${requests} requests`;
  return [
    '| Measure | durable-agent | Gemini CLI | Ratio | Goal | Met |',
    '|---|---|---|---|---|---|',
    row(
      `Per-turn cost (1 model call + 1 read_file; 1- vs ${s.longTurns}-turn prompt)`,
      perTurn(s.perTurnMs.ours),
      perTurn(s.perTurnMs.gemini),
      r(s.perTurnMs),
    ),
    row(
      `Request bytes the model receives, ${s.bytesTurns}-turn prompt reading ${s.bytesFileSize / 1024} KiB files`,
      kib(b.ours, b.oursRequests),
      kib(b.gemini, b.geminiRequests),
      b.ours / b.gemini,
    ),
  ].join('\n');
}

/**
 * The cold one-turn run as a user sees it (bin scripts, no server up, home reused), to the answer
 * and to the exit: the exit is the goal, since the shell's prompt comes back only then.
 */
export function coldTable(c: ColdResult): string {
  const ms = (values: number[]) => `${fmt(median(values), 0)} ms (${range(values.map(Math.round))})`;
  const ratio = (ours: number[], theirs: number[]) => median(ours) / median(theirs);
  const exit = ratio(c.ours.exitMs, c.gemini.exitMs);
  return [
    '| Cold one-turn headless run (ours starts its embedded server) | durable-agent | Gemini CLI | Ratio | Goal | Met |',
    '|---|---|---|---|---|---|',
    `| process start → answer on stdout | ${ms(c.ours.answerMs)} | ${ms(c.gemini.answerMs)} | ` +
      `${fmt(ratio(c.ours.answerMs, c.gemini.answerMs))}× | | |`,
    `| process start → exit | ${ms(c.ours.exitMs)} | ${ms(c.gemini.exitMs)} | **${fmt(exit)}×** | ≤ 1.0× | ` +
      `${exit <= 1 ? 'yes' : '**no**'} |`,
  ].join('\n');
}
