import * as fs from 'node:fs';
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import type { ListingMemo } from '../workflows/state/summaries';
import { WORKSPACE_MEMO } from './sessions';

/** A session as an editor's session picker shows it. */
export interface ListedSession {
  sessionId: string;
  /** The workspace the session works in (a real path). */
  workspace: string;
  /** The first line of its first prompt; the session's own summary while it has none (or it is too old to scan). */
  title: string;
  /** When anything last happened in it: a prompt started or ended, or the session itself started or ended. */
  updatedAt: string;
  /** Still takes messages (false once closed). */
  open: boolean;
}

/** At most this many executions are read: visibility stores do not all sort or filter by memo. */
const SCAN = 1000;

/**
 * The sessions of `workspace` (all sessions without it), most recently active first, read from the
 * server's visibility store in one listing: each session and the prompts it started. Sessions started
 * before the workspace memo existed carry none and are left out.
 */
export async function listSessions(client: Client, options: { workspace?: string } = {}): Promise<ListedSession[]> {
  const workspace = options.workspace === undefined ? undefined : sessionWorkspacePath(options.workspace);
  const sessions = new Map<string, ListedSession>();
  // The start time of the prompt each session's title comes from: the earliest one seen wins.
  const titledBy = new Map<string, number>();
  const prompts: WorkflowExecutionInfo[] = [];
  let seen = 0;
  const query = "WorkflowType IN ('agentPromptWorkflow', 'agentSessionWorkflow')";
  for await (const wf of client.workflow.list({ query })) {
    if (++seen > SCAN) break;
    if (wf.type === 'agentPromptWorkflow') {
      if (wf.parentExecution) prompts.push(wf);
      continue;
    }
    const memo = (wf.memo ?? {}) as Partial<ListingMemo>;
    const where = wf.memo?.[WORKSPACE_MEMO];
    if (typeof where !== 'string' || (workspace !== undefined && where !== workspace)) continue;
    const known = sessions.get(wf.workflowId);
    // A session that continued as new is listed once per run: its running run says whether it is open.
    const open = wf.status.name === 'RUNNING' || (known?.open ?? false);
    const updatedAt = latest(known?.updatedAt, activity(wf));
    sessions.set(wf.workflowId, {
      sessionId: wf.workflowId,
      workspace: where,
      title: memo.summary ?? '',
      updatedAt,
      open,
    });
  }
  for (const prompt of prompts) {
    const session = sessions.get(prompt.parentExecution?.workflowId ?? '');
    if (!session) continue;
    session.updatedAt = latest(session.updatedAt, activity(prompt));
    const started = prompt.startTime.getTime();
    const summary = (prompt.memo as Partial<ListingMemo> | undefined)?.summary;
    const earlier = titledBy.get(session.sessionId);
    if (typeof summary !== 'string' || (earlier !== undefined && earlier <= started)) continue;
    session.title = summary;
    titledBy.set(session.sessionId, started);
  }
  return [...sessions.values()].sort(
    (a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.sessionId.localeCompare(b.sessionId),
  );
}

/** The last thing that happened to an execution: its end, else its start. */
function activity(wf: WorkflowExecutionInfo): string {
  return (wf.closeTime ?? wf.startTime).toISOString();
}

function latest(a: string | undefined, b: string): string {
  return a !== undefined && a > b ? a : b;
}

/** A directory as sessions record their workspace, a real path: a path through a symlink names the same one. */
export function sessionWorkspacePath(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}
