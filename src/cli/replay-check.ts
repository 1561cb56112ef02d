import type { Command } from 'commander';
import type { Client } from '../client';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { withClient } from './connect';
import { recentHistories } from '../client/histories';
import { patchAdvice, patchUse } from '../client/patch-use';
import { EXIT, InputError } from './exit-codes';
import type { Io } from './output';

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30m`, `24h`, `7d`: how far back `replay-check` looks. */
export function parseSince(value: string): number {
  const match = /^(\d+)([smhd])$/.exec(value.trim());
  if (!match || Number(match[1]) === 0)
    throw new InputError(`--since must be a positive whole number with a unit s, m, h or d (e.g. 24h), not "${value}"`);
  return Number(match[1]) * UNITS[match[2]];
}

/**
 * `durable-agent replay-check`: the gate before a deploy. Replays the recent histories of the agent's
 * workflows against this build's workflow code (or `--workflow-bundle`, the build about to ship) and
 * lists each one it would break; exits 1 when there is one. Then says, for each replay patch, whether the
 * open runs still need it (see client/patch-use).
 */
export async function replayCheckCommand(
  client: Client,
  options: { sinceMs: number; bundle?: string },
  io: Io,
): Promise<number> {
  const { replayHistories } = await import('../worker/replay');
  const since = new Date(Date.now() - options.sinceMs);
  const { replayed, broken } = await replayHistories(recentHistories(client, since), options.bundle);
  for (const b of broken) io.stdout.write(`BREAKS ${b.workflowId} (run ${b.runId}): ${b.kind}: ${b.message}\n`);
  io.stdout.write(`replayed ${replayed} histories since ${since.toISOString()}; ${broken.length} would break\n`);
  const { open, uses } = await patchUse(client);
  io.stdout.write(`replay patches, against the ${open} open prompt and sub-agent run(s):\n`);
  for (const use of uses) io.stdout.write(`  ${patchAdvice(use)}\n`);
  return broken.length > 0 ? EXIT.error : EXIT.ok;
}

/** Registers the command: it needs a reachable server, which it never starts. */
export function addReplayCheck(program: Command, setup: () => { config: Config; logger: Logger }, io: Io): void {
  program
    .command('replay-check')
    .description("replay recent workflow histories against this build's workflow code; list any it would break")
    .option('--since <duration>', 'how far back to look: 30m, 24h, 7d', '24h')
    .option('--workflow-bundle <file>', 'replay against this workflow bundle instead of the installed one')
    .action(async (o: { since: string; workflowBundle?: string }) => {
      const sinceMs = parseSince(o.since);
      process.exitCode = await withClient(setup(), (client) =>
        replayCheckCommand(client, { sinceMs, bundle: o.workflowBundle }, io),
      );
    });
}
