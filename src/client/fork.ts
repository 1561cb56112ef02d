import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@temporalio/client';
import { restoreWorkspace, type RestoreResult } from '../checkpoints';
import type { TranscriptStore } from '../store/types';
import { rewindConversationUpdate } from '../workflows/rewind-api';
import { hostIsLocal } from './address';
import { InputError } from './input-error';
import { startSession } from './continued-session';
import { conversationOwner, startDefaults } from './session-target';
import { turnPoint, type TravelTurns } from './turn-point';

export interface ForkReport {
  sessionId: string;
  workspace: string;
  /** The new workspace is a `git worktree` of the original repository. */
  worktree: boolean;
  files: RestoreResult;
}

/** The host whose workers serve the fork's workspace (the machine the fork writes it on), and the server's address. */
export interface ForkHost {
  host: string;
  temporalAddress: string;
}

/**
 * `fork ID --at N [--workspace DIR]`: a new session whose conversation is the original's up to turn N, in a workspace
 * that is turn N's checkpoint written into DIR. Without DIR, a workspace in a git repository gets a `git worktree` of
 * it at HEAD beside it (the checkpoint then written over it). The original session and workspace are not touched.
 */
export async function fork(
  client: Client,
  store: TranscriptStore,
  turns: TravelTurns,
  options: { at: number; workspace?: string; taskQueue: string; where: ForkHost },
): Promise<ForkReport> {
  const point = turnPoint(turns, options.at, { files: true, conversation: true });
  const owner = await conversationOwner(client, turns.id);
  const defaults = await startDefaults(client, owner.id);
  const sessionId = `${owner.id}-fork-${randomBytes(3).toString('hex')}`;
  const { dir, worktree } = forkFolder(turns.workspace, options.workspace, sessionId);
  const files = await restoreWorkspace(store, point.checkpoint as string, dir);
  // The fork's tools run where its workspace was written, whichever host ran the original.
  const { host, temporalAddress } = options.where;
  const where = { host, hostIsLocal: hostIsLocal(host, temporalAddress) };
  await startSession(client, sessionId, { ...defaults, workspace: dir, ...where }, options.taskQueue);
  await client.workflow
    .getHandle(sessionId)
    .executeUpdate(rewindConversationUpdate, { args: [{ to: point.transcript, turn: options.at }] });
  return { sessionId, workspace: dir, worktree, files };
}

/** DIR made ready (new or empty), or the worktree beside a git workspace; refuses a folder that holds files. */
function forkFolder(original: string | undefined, given: string | undefined, sessionId: string) {
  if (given) {
    const dir = path.resolve(given);
    if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0)
      throw new InputError(`--workspace ${dir} is not empty: a fork writes its workspace into a new or empty folder`);
    fs.mkdirSync(dir, { recursive: true });
    return { dir: fs.realpathSync(dir), worktree: false };
  }
  const repo = original && fs.existsSync(original) ? gitTop(original) : undefined;
  if (!repo || !original)
    throw new InputError(
      'give --workspace DIR: the workspace is not a git repository on this machine, so no worktree can be made',
    );
  const dir = path.join(path.dirname(repo), `${path.basename(repo)}-${sessionId.slice(-6)}`);
  execFileSync('git', ['-C', repo, 'worktree', 'add', '--detach', dir, 'HEAD'], { stdio: 'ignore' });
  // A workspace below the repository's top is the same folder in the worktree.
  return { dir: path.join(dir, path.relative(repo, original)), worktree: true };
}

function gitTop(dir: string): string | undefined {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}
