import * as os from 'node:os';
import type { Part } from '@google/genai';
import { folderTree } from './folder-tree';

/** The tag of the environment part, as Gemini CLI names it (models are tuned to find it there). */
export const SESSION_CONTEXT_TAG = 'session_context';

/**
 * The environment at the start of a conversation, sent as the first part of its first user message as
 * Gemini CLI sends it: the date, the operating system, the temporary directory, the workspace
 * directories and a bounded folder tree, so that the model does not start by listing the workspace.
 * Built inside the model-call activity (it reads the disk); it is written to the transcript with the
 * message, so later requests and replays send the same text.
 */
export async function sessionContextPart(workspace: string, now = new Date()): Promise<Part> {
  const date = now.toLocaleDateString('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
  const text = [
    `<${SESSION_CONTEXT_TAG}>`,
    'The environment of this conversation, as durable-agent found it when the conversation started:',
    `- Date: ${date}`,
    `- Operating system: ${process.platform}`,
    `- Temporary directory: ${os.tmpdir()}`,
    '- Workspace directories:',
    `  - ${workspace}`,
    '',
    await folderTree(workspace),
    `</${SESSION_CONTEXT_TAG}>`,
  ].join('\n');
  return { text };
}
