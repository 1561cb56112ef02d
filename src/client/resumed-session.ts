import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { InputError } from './input-error';
import type { PromptRequest } from './prompt-input';
import { latestSession } from './sessions';
import { describeExecution } from './status';

/** The session a request joins (`session`, or `resume` looked up once), given a client. */
export function sessionOf(
  request: Pick<PromptRequest, 'resume' | 'session'>,
  workspace: string,
): (client: Client) => Promise<string | undefined> {
  let found: Promise<string | undefined> | undefined;
  return (client) => {
    found ??= request.resume ? resumedSession(client, request.resume, workspace) : Promise.resolve(request.session);
    return found;
  };
}

/** The session `--resume` names: `latest` is this workspace's newest running session. */
export async function resumedSession(client: Client, resume: string, workspace: string): Promise<string> {
  if (resume === 'latest') {
    const id = await latestSession(client, workspace);
    if (!id) throw new InputError(`No previous sessions found for this project (${workspace}).`);
    return id;
  }
  const found = await describeExecution(client, resume).catch((err) => {
    if (err instanceof WorkflowNotFoundError) throw new InputError(`--resume: no session ${resume}`);
    throw err;
  });
  // `-o json` prints a session's prompt id as `session_id`: resuming it resumes its session.
  if (found.type === 'agentPromptWorkflow' && found.parentId) return resumedSession(client, found.parentId, workspace);
  if (found.type !== 'agentSessionWorkflow')
    throw new InputError(
      `--resume: ${resume} is a single prompt, not a session; runs started with --session ID (or chat) can be resumed`,
    );
  if (found.status !== 'RUNNING') throw new InputError(`--resume: session ${resume} is closed`);
  return resume;
}
