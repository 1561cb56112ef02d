import { describeExecution, promptStatus, sessionStatus, type Client } from '../client';
import type { ChatSession } from './chat-session';
import { EXIT } from './exit-codes';
import { shorten, type Io } from './output';
import { selfCommand } from '../runtime/self-command';

/**
 * Prints where a resumed session stands; returns the prompts to follow (running, then queued).
 * With no worker to answer the session's query, the recap comes from its prompts, which the
 * server keeps: what ran is shown, and what waits for a worker is said.
 */
export async function printRecap(s: ChatSession): Promise<string[]> {
  const status = await sessionStatus(s.client, s.id);
  const prompts = status?.prompts ?? (await promptCount(s.client, s.id));
  const lines = [`Resuming session ${s.id}: ${prompts} prompt(s) so far.`];
  if (prompts > 0) lines.push(...(await lastPromptLines(s.client, `${s.id}-p${prompts}`)));
  if (!status) lines.push(`No worker answered for the session; messages are kept until one runs.`);
  if (status?.closed) lines.push('The session is closing: its queued messages run, then it ends.');
  const follow = status ? [...(status.current ? [status.current] : []), ...status.queued.map((q) => q.promptId)] : [];
  if (follow.length > 0) lines.push(`Following ${follow.join(', ')}.`);
  s.io.stderr.write(`${lines.join('\n')}\n`);
  return follow;
}

async function lastPromptLines(client: Client, promptId: string): Promise<string[]> {
  const last = await promptStatus(client, promptId).catch(() => undefined);
  if (!last) return [];
  return [
    `Last prompt ${last.workflowId} (${last.status})${last.response ? ', its answer:' : '.'}`,
    ...(last.response ? [indent(shorten(last.response.trim(), 600))] : []),
  ];
}

/** How many prompts a session has started (`ID-p1` … `ID-pN`, numbered without gaps), read from the server. */
async function promptCount(client: Client, sessionId: string): Promise<number> {
  const exists = (n: number) =>
    describeExecution(client, `${sessionId}-p${n}`).then(
      () => true,
      () => false,
    );
  let high = 1;
  while (await exists(high)) high *= 2;
  let low = high / 2;
  // Prompt `low` exists (or low < 1), prompt `high` does not: narrow down to the last one that does.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await exists(middle)) low = middle;
    else high = middle;
  }
  return Math.floor(low);
}

/**
 * A session started with `--fake-responses` has its model calls answered by the script of the
 * process that serves its queue: after the recap, say how to go on rather than queue a message
 * that nothing would answer.
 */
export function scriptNeeded(id: string, io: Io): number {
  io.stderr.write(
    `Session ${id} was started with --fake-responses: a script answers its model calls. To go on, resume it ` +
      `with a script of the answers from here on: ${selfCommand()} chat ${id} --fake-responses FILE\n`,
  );
  return EXIT.input;
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}
