import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import {
  confirmToolCall,
  isAwaitingApproval,
  PayloadTooLargeError,
  WorkflowUpdateFailedError,
  type Client,
  type ToolConfirmation,
} from '../client';
import type { AgentEvent } from '../core/events';
import { externalizeLargeStrings } from '../store/blobs';
import type { TranscriptStore } from '../store/types';
import { approvalHint } from './approval-hint';
import { expandMarkers, previewCall } from './approval-preview';
import { liveEnv } from '../config/env';

export interface ApprovalPromptOptions {
  workflowId: string;
  callId: string;
  name: string;
  args: unknown;
  /** The workspace as seen from this machine, for the diff preview. */
  workspace: string;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /**
   * Editor command line for "modify", run like git runs it (`sh -c '<editor> "$@"' <file>`). Default: $VISUAL, $EDITOR,
   * vi.
   */
  editor?: string;
  /**
   * Resolves `{ $blob }` markers for the preview and the editor (see `openArgsStore`); modified long text is stored
   * there as markers.
   */
  store?: TranscriptStore;
  /** ANSI colours; default: whether `output` is a terminal. */
  color?: boolean;
  /** Aborting closes the prompt: the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
}

const MENU = [
  '  1. Allow once',
  '  2. Allow always (for this prompt)',
  '  3. Modify the arguments in $EDITOR',
  '  4. Deny',
  'Choice [1-4]: ',
].join('\n');

/**
 * Asks a person, on `input`/`output`, to decide one call that awaits approval, and returns the
 * decision as the `toolConfirmation` payload. Sending it is the caller's job.
 */
export async function promptForApproval(options: ApprovalPromptOptions): Promise<ToolConfirmation> {
  const { callId, output } = options;
  const color = options.color ?? (output as { isTTY?: boolean }).isTTY === true;
  const preview = await previewCall(options.name, options.args, options.workspace, { store: options.store, color });
  output.write(`\n? ${options.name} needs approval (call ${callId})\n${preview.replace(/^/gm, '  ')}\n`);
  const terminal = openTerminal(options);
  try {
    for (;;) {
      const choice = (await terminal.ask(MENU)).trim();
      if (choice === '1') return { callId, outcome: 'proceed_once' };
      if (choice === '2') return { callId, outcome: 'proceed_always' };
      if (choice === '3') {
        const args = await modifyArgs(options, terminal);
        if (args) return { callId, outcome: 'modify', args };
      } else if (choice === '4') {
        const reason = (await terminal.ask('Reason, told to the model (optional): ')).trim();
        return reason ? { callId, outcome: 'cancel', reason } : { callId, outcome: 'cancel' };
      } else {
        output.write('Type 1, 2, 3 or 4, then Enter.\n');
      }
    }
  } finally {
    terminal.close();
  }
}

interface Terminal {
  ask(query: string): Promise<string>;
  /** Lets go of the input (and of raw mode) so that an editor can use the terminal. */
  close(): void;
}

/** One readline interface at a time, opened on demand, so the prompt can hand the terminal to an editor. */
function openTerminal({ input, output, signal }: ApprovalPromptOptions): Terminal {
  let rl: readline.Interface | undefined;
  const close = () => {
    rl?.close();
    rl = undefined;
  };
  const ask = (query: string) =>
    new Promise<string>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError());
      const open = (rl ??= readline.createInterface({ input, output }));
      // Ctrl-C in raw mode reaches readline, not the process: pass it on, so `run` cancels as usual.
      const onSigint = () => process.kill(process.pid, 'SIGINT');
      const onClose = () => reject(new InputClosedError());
      const onAbort = () => (reject(abortError()), close());
      open.once('SIGINT', onSigint).once('close', onClose);
      signal?.addEventListener('abort', onAbort, { once: true });
      open.question(query, (answer) => {
        signal?.removeEventListener('abort', onAbort);
        // Only our own listeners: readline's own 'close' listener is what unhooks its keypress
        // handler from stdin; without it a closed menu would go on echoing every keystroke.
        open.off('close', onClose).off('SIGINT', onSigint);
        resolve(answer);
      });
    });
  return { ask, close };
}

/** The edited arguments, or undefined (after saying why) when the menu should be shown again. */
async function modifyArgs(
  options: ApprovalPromptOptions,
  terminal: Terminal,
): Promise<Record<string, unknown> | undefined> {
  const { output, store } = options;
  const expanded = await expandMarkers(options.args, store);
  const unresolved = expanded.partial.size > 0;
  if (unresolved)
    output.write(
      'Long strings appear as {"$blob": ...} markers: keep them as they are, or replace one with a whole string.\n',
    );
  terminal.close();
  const edited = await editJson(unresolved ? options.args : expanded.value, options.editor ?? defaultEditor());
  if (typeof edited === 'string') {
    output.write(`${edited}\n`);
    return undefined;
  }
  // Long text goes back as markers (ours, made here), keeping workflow history small (invariant 4).
  return store ? externalizeLargeStrings(edited, store) : edited;
}

/** The JSON object saved in the editor, or why there is none. */
async function editJson(value: unknown, editor: string): Promise<Record<string, unknown> | string> {
  const before = `${JSON.stringify(value, null, 2)}\n`;
  let edited: string;
  try {
    edited = await editInEditor(before, editor);
  } catch (err) {
    return `${(err as Error).message}; the arguments are unchanged.`;
  }
  if (edited === before) return 'No change made.';
  try {
    const parsed: unknown = JSON.parse(edited);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
    return 'The arguments must be a JSON object; nothing was changed.';
  } catch (err) {
    return `The edited arguments are not valid JSON (${(err as Error).message}); nothing was changed.`;
  }
}

/** Writes `text` to a temporary file, runs the editor on it with this terminal, and returns what was saved. */
async function editInEditor(text: string, editor: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'durable-agent-args-'));
  const file = path.join(dir, 'args.json');
  try {
    await fs.writeFile(file, text);
    const status = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', `${editor} "$@"`, 'editor', file], { stdio: 'inherit' });
      child.once('error', reject);
      child.once('exit', (code) => resolve(code));
    });
    if (status !== 0) throw new Error(`The editor (${editor}) exited with status ${status}`);
    return await fs.readFile(file, 'utf8');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function defaultEditor(): string {
  return liveEnv.editor();
}

export interface ApprovalHandler {
  /** Sees every event of the prompt; returns at once (prompts run one at a time, in order, in the background). */
  onEvent(event: AgentEvent): void;
  /** Abandons the open prompt and any queued ones; resolves when nothing is left running. */
  close(): Promise<void>;
}

export type ApprovalHandlerOptions = Pick<
  ApprovalPromptOptions,
  'workflowId' | 'workspace' | 'input' | 'output' | 'editor' | 'store' | 'color'
> & { client: Client };

/**
 * Interactive approvals for `run` on a terminal: each `tool_call_awaiting_approval` event opens a
 * prompt, and its answer is sent with the `confirmToolCall` update. A call answered elsewhere (its
 * `tool_call_response` arrives) has its prompt abandoned; a rejected update is reported, not fatal.
 */
export function createApprovalHandler(options: ApprovalHandlerOptions): ApprovalHandler {
  const { output, workflowId } = options;
  const answered = new Set<string>();
  let queue = Promise.resolve();
  let open: { callId: string; controller: AbortController } | undefined;
  let closed = false;
  // A rejected answer (invalid modified arguments, say) is asked again while the call still awaits one.
  const decide = async (event: Extract<AgentEvent, { type: 'tool_call_awaiting_approval' }>) => {
    const { callId, name, args } = event;
    while (!closed && !answered.has(callId)) {
      open = { callId, controller: new AbortController() };
      try {
        const confirmation = await promptForApproval({
          ...options,
          callId,
          name,
          args,
          signal: open.controller.signal,
        });
        output.write(`${await confirmToolCall(options.client, workflowId, confirmation)}\n`);
        return;
      } catch (err) {
        output.write(describeFailure(err, event, workflowId, closed));
        const refused = err instanceof WorkflowUpdateFailedError || err instanceof PayloadTooLargeError;
        if (!refused || !(await isAwaitingApproval(options.client, workflowId, callId))) return;
      } finally {
        open = undefined;
      }
    }
  };
  return {
    onEvent(event) {
      if (event.type === 'tool_call_awaiting_approval') queue = queue.then(() => decide(event));
      if (event.type !== 'tool_call_response') return;
      answered.add(event.callId);
      if (open?.callId === event.callId) open.controller.abort();
    },
    close() {
      closed = true;
      open?.controller.abort();
      return queue;
    },
  };
}

function describeFailure(
  err: unknown,
  event: { callId: string; name: string; args: unknown },
  workflowId: string,
  closed: boolean,
): string {
  if ((err as Error).name === 'AbortError')
    return closed ? '\n' : `\n(call ${event.callId} no longer awaits approval)\n`;
  if (err instanceof InputClosedError)
    return `\n${err.message}.\n${approvalHint(workflowId, event.callId, event.name, event.args)}`;
  const reason = err instanceof WorkflowUpdateFailedError && err.cause ? err.cause.message : (err as Error).message;
  return `Not recorded: ${reason}\n`;
}

class InputClosedError extends Error {
  override name = 'InputClosedError';
  constructor() {
    super('Standard input closed before an answer');
  }
}

function abortError(): Error {
  return Object.assign(new Error('the approval prompt was abandoned'), { name: 'AbortError' });
}
