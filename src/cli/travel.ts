import type { Command } from 'commander';
import { answersQueries, describeExecution, hasPollers, openArgsStore, type Client } from '../client';
import { statCacheDir as statCacheDirOf } from '../checkpoints';
import { fork } from '../client/fork';
import { turnChanges, turnDiff } from '../client/look-back';
import { rewind } from '../client/rewind';
import type { TravelTurns } from '../client/turn-point';
import type { TranscriptStore } from '../store/types';
import { positiveInt } from './arguments';
import type { Ctx } from './connect';
import { defaultHost } from './default-host';
import { hostOption } from './host-options';
import type { Io } from './output';
import { openRuntime, startWorker } from '../runtime';
import { checkpointsText, forkText, rewindText } from './travel-text';

/** Where the commands read a session's or prompt's turns (the checkpoints' listing). */
export type TurnsSource = (client: Client, id: string) => Promise<TravelTurns>;

type Run = (client: Client, store: TranscriptStore, queue: string) => Promise<number>;

/** `checkpoints`, `diff`, `rewind` and `fork`: looking back over a session's turns and going back to one. */
export function addTravel(program: Command, setup: () => Ctx, io: Io, turnsOf: TurnsSource): void {
  addLookBack(program, setup, io, turnsOf);
  addRewind(program, setup, io, turnsOf);
  addFork(program, setup, io, turnsOf);
}

/** `checkpoints` and `diff`: they only read, so they need no API key. */
function addLookBack(program: Command, setup: () => Ctx, io: Io, turnsOf: TurnsSource): void {
  program
    .command('checkpoints')
    .argument('<id>', "a session's or a prompt's id")
    .option('--json', 'one JSON object')
    .description('list the turns with what each call changed in the workspace')
    .action(async (id: string, o) => {
      process.exitCode = await withSession(
        setup(),
        id,
        async (client, store) => {
          const turns = await turnChanges(store, await turnsOf(client, id));
          io.stdout.write(o.json ? `${JSON.stringify({ id, turns })}\n` : checkpointsText(turns));
          return 0;
        },
        'queries',
      );
    });
  program
    .command('diff')
    .argument('<id>', "a session's or a prompt's id")
    .requiredOption('--turn <n>', 'the turn whose changes to show', positiveInt)
    .option('--json', 'one JSON object')
    .description("show a turn's changes to the workspace as a unified diff (shell commands' included)")
    .action(async (id: string, o) => {
      process.exitCode = await withSession(
        setup(),
        id,
        async (client, store) => {
          const diff = await turnDiff(store, await turnsOf(client, id), o.turn as number);
          const text = (diff.patches ?? []).map((p) => p.diff ?? `Binary file ${p.path} changed\n`).join('');
          io.stdout.write(o.json ? `${JSON.stringify({ id, ...diff })}\n` : text);
          return 0;
        },
        'queries',
      );
    });
}

function addFork(program: Command, setup: () => Ctx, io: Io, turnsOf: TurnsSource): void {
  program
    .command('fork')
    .argument('<id>', "a session's or a prompt's id")
    .requiredOption('--at <n>', 'the turn to fork at', positiveInt)
    .option('--workspace <dir>', "the new session's workspace (new or empty; default: a git worktree beside it)")
    .option('--host <name>', "the host this machine's workers serve (default: this machine's name)", hostOption)
    .description("start a new session from turn N's conversation and workspace; the original stays as it is")
    .action(async (id: string, o) => {
      const ctx = setup();
      const host = (o.host as string | undefined) ?? defaultHost();
      const where = { host, temporalAddress: ctx.config.temporalAddress };
      process.exitCode = await withSession(ctx, id, async (client, store, taskQueue) => {
        const at = o.at as number;
        const turns = await turnsOf(client, id);
        const report = await fork(client, store, turns, { at, workspace: o.workspace, taskQueue, where });
        io.stdout.write(forkText(report, at));
        return 0;
      });
    });
}

function addRewind(program: Command, setup: () => Ctx, io: Io, turnsOf: TurnsSource): void {
  program
    .command('rewind')
    .argument('<id>', "a session's or a prompt's id")
    .option('--to <n>', 'the turn to go back to', positiveInt)
    .option('--undo', 'put back what the last rewind replaced')
    .option('--files-only', 'rewind the workspace, keep the conversation')
    .option('--conversation-only', 'rewind the conversation, keep the workspace')
    .option('--cancel', 'cancel a running prompt of the session first')
    .option('--host <name>', "the host this machine's workers serve (default: this machine's name)", hostOption)
    .description("take the workspace and the conversation back to turn N's checkpoint (undoable)")
    .action(async (id: string, o) => {
      const ctx = setup();
      const host = (o.host as string | undefined) ?? defaultHost();
      process.exitCode = await withSession(ctx, id, async (client, store, taskQueue) => {
        const options = { to: o.to, undo: o.undo, filesOnly: o.filesOnly, conversationOnly: o.conversationOnly, host };
        const turns = await turnsOf(client, id);
        const statCacheDir = statCacheDirOf(ctx.config.home);
        const report = await rewind(client, store, turns, { ...options, cancel: o.cancel, taskQueue, statCacheDir });
        io.stdout.write(rewindText(report, !!o.undo));
        return 0;
      });
    });
}

/**
 * Runs a command about `id` with the transcript store open and a worker for its queue: a rewind is an update the
 * session runs, and the process that ran the session's last prompt may be gone.
 */
async function withSession(ctx: Ctx, id: string, run: Run, worker: 'full' | 'queries' = 'full'): Promise<number> {
  const runtime = await openRuntime(ctx.config, { worker: 'never', logger: ctx.logger, uiEnabled: false });
  const { store, close } = openArgsStore(ctx.config);
  const stops = [close, runtime.stop];
  try {
    const queue = await describeExecution(runtime.client, id).then(
      (found) => found.taskQueue,
      () => runtime.taskQueue,
    );
    const go = () => run(runtime.client, store, queue);
    if ((await hasPollers(runtime.client, queue)) && (await answersQueries(runtime.client, id))) return await go();
    // Looking back only queries: a worker with no activities needs no API key and takes no one else's work.
    if (worker === 'queries') return await (await import('../worker')).withQueryWorker(ctx.config, queue, go);
    stops.unshift((await startWorker(ctx.config, queue)).stop);
    return await go();
  } finally {
    for (const stop of stops) await stop();
  }
}
