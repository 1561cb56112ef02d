import { statCacheDir } from '../checkpoints';
import { sessionTurns } from '../client';
import { turnChanges } from '../client/look-back';
import { restorePoint, restorePoints } from '../client/restore-points';
import { rewind } from '../client/rewind';
import { InputError } from './exit-codes';
import type { ChatSession } from './chat-session';
import { checkpointsText, rewindText } from './travel-text';

/**
 * `/rewind [N]` and `/restore [NAME]` in `chat`: the same going back as `durable-agent rewind`, on the chat's own
 * session, refused while one of its prompts runs (the rewind's own check, which also covers other clients' prompts).
 * `/restore NAME` is a rewind to the turn that suggested the call, with the files as they were just before it ran.
 */
export async function chatTravel(
  s: ChatSession,
  line: { kind: 'rewind'; turn?: number } | { kind: 'restore'; name?: string },
  busy: boolean,
): Promise<void> {
  if (s.defaults) return void s.io.stderr.write('Nothing to go back to: the session has no turns yet.\n');
  const asked = line.kind === 'rewind' ? line.turn !== undefined : line.name !== undefined;
  if (asked && busy)
    throw new InputError(`a prompt of session ${s.id} is running: wait until it ends (or Ctrl-C it), then go back`);
  const store = s.store;
  if (!store) throw new Error('no transcript store is open in this chat');
  const turns = await sessionTurns(s.client, s.id);
  if (line.kind === 'rewind' && line.turn === undefined)
    return void s.io.stderr.write(checkpointsText(await turnChanges(store, turns)) || 'No turns yet.\n');
  if (line.kind === 'restore' && line.name === undefined) {
    const names = restorePoints(turns).map((p) => p.name);
    return void s.io.stderr.write(
      names.length === 0
        ? 'No restorable tool calls found.\n'
        : `Tool calls to restore (the workspace and conversation as they were just before the call):\n\n${names.join('\n')}\n`,
    );
  }
  const point = line.kind === 'restore' ? restorePoint(turns, line.name as string) : undefined;
  const to = point?.turn ?? (line as { turn: number }).turn;
  const options = { to, taskQueue: s.taskQueue, statCacheDir: statCacheDir(s.config.home) };
  const report = await rewind(s.client, store, turns, { ...options, ...(point ? { checkpoint: point.before } : {}) });
  if (point) s.io.stderr.write(`Restored to just before ${point.name} (call ${point.callId}); it is not run again.\n`);
  s.io.stderr.write(rewindText(report, false));
}
