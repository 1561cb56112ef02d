import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { WorkflowUpdateFailedError, type Client } from '../client';
import type { AgentEvent } from '../core/events';
import { FileTranscriptStore } from '../store/file-store';
import type { ToolConfirmation } from '../workflows/api';
import { createApprovalHandler, promptForApproval, type ApprovalPromptOptions } from './interactive-approval';

let dir: string;
let ws: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'da-approval-')));
  ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, 'a.txt'), 'old line\n');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const MENU_PROMPT = 'Choice [1-4]: ';
const writeArgs = { file_path: 'a.txt', content: 'old content\n' };

async function until(probe: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !probe(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!probe()) throw new Error(`timed out waiting for ${what}`);
}

/** A terminal made of two pipes: `type` waits for the `nth` occurrence of `prompt`, then sends a line. */
function fakeTerminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (d: Buffer) => (text += d.toString('utf8')));
  const count = (s: string) => text.split(s).length - 1;
  return {
    input,
    output,
    text: () => text,
    async type(line: string, prompt = MENU_PROMPT, nth = 1) {
      await until(() => count(prompt) >= nth, `"${prompt}" #${nth} in:\n${text}`);
      input.write(`${line}\n`);
    },
  };
}

function ask(
  term: ReturnType<typeof fakeTerminal>,
  extra: Partial<ApprovalPromptOptions> = {},
): Promise<ToolConfirmation> {
  return promptForApproval({
    workflowId: 'wf-1',
    callId: 'call-1',
    name: 'write_file',
    args: writeArgs,
    workspace: ws,
    input: term.input,
    output: term.output,
    ...extra,
  });
}

function editorScript(name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

test('shows the tool, its diff and the menu; 1 allows once', async () => {
  const term = fakeTerminal();
  const answer = ask(term);
  await term.type('1');
  await expect(answer).resolves.toEqual({ callId: 'call-1', outcome: 'proceed_once' });
  expect(term.text()).toContain('? write_file needs approval (call call-1)');
  expect(term.text()).toContain('  --- a/a.txt\n  +++ b/a.txt\n  @@ -1 +1 @@\n  -old line\n  +old content\n');
  expect(term.text()).toContain(
    '1. Allow once\n  2. Allow always (for this prompt)\n  3. Modify the arguments in $EDITOR\n  4. Deny\n',
  );
  expect(term.text()).not.toContain('\x1b[');
});

test('2 allows always; an unknown choice shows the menu again', async () => {
  const term = fakeTerminal();
  const answer = ask(term);
  await term.type('maybe');
  await term.type(' 2 ', MENU_PROMPT, 2);
  await expect(answer).resolves.toEqual({ callId: 'call-1', outcome: 'proceed_always' });
  expect(term.text()).toContain('Type 1, 2, 3 or 4');
});

test('3 opens the editor on the arguments and returns what it saved', async () => {
  const term = fakeTerminal();
  const answer = ask(term, { editor: editorScript('edit.sh', `sed -i 's/old/new/' "$1"`) });
  await term.type('3');
  await expect(answer).resolves.toEqual({
    callId: 'call-1',
    outcome: 'modify',
    args: { file_path: 'a.txt', content: 'new content\n' },
  });
});

test('invalid JSON from the editor is explained and the menu comes back', async () => {
  const term = fakeTerminal();
  const answer = ask(term, { editor: editorScript('break.sh', `printf '{ broken' > "$1"`) });
  await term.type('3');
  await term.type('1', MENU_PROMPT, 2);
  await expect(answer).resolves.toEqual({ callId: 'call-1', outcome: 'proceed_once' });
  expect(term.text()).toMatch(/The edited arguments are not valid JSON \(.+\); nothing was changed\./);
});

test('an editor that fails, or saves nothing new, changes nothing', async () => {
  const term = fakeTerminal();
  const answer = ask(term, {
    editor: editorScript('fail-once.sh', 'if [ -e "$0.ran" ]; then exit 0; fi; touch "$0.ran"; exit 3'),
  });
  await term.type('3');
  await term.type('3', MENU_PROMPT, 2);
  await term.type('4', MENU_PROMPT, 3);
  await term.type('', 'Reason');
  await expect(answer).resolves.toEqual({ callId: 'call-1', outcome: 'cancel' });
  expect(term.text()).toMatch(/exited with status 3; the arguments are unchanged\.\n[^]*No change made\.\n/);
});

test('4 denies, with the reason typed next', async () => {
  const term = fakeTerminal();
  const answer = ask(term);
  await term.type('4');
  await term.type('not this file', 'Reason, told to the model (optional): ');
  await expect(answer).resolves.toEqual({ callId: 'call-1', outcome: 'cancel', reason: 'not this file' });
});

test('the editor gets full text for markers the store resolves, and they go back as markers', async () => {
  const store = new FileTranscriptStore(path.join(dir, 'store'));
  const long = 'old text '.repeat(500);
  const ref = await store.putBlob(long);
  const term = fakeTerminal();
  const args = { file_path: 'big.txt', content: { $blob: ref, size: long.length, preview: long.slice(0, 200) } };
  const answer = ask(term, { args, store, editor: editorScript('edit.sh', `sed -i 's/old/new/g' "$1"`) });
  await term.type('3');
  const result = await answer;
  const content = result.args?.content as { $blob: string; size: number };
  expect(content.size).toBe(long.length);
  await expect(store.getBlob(content.$blob)).resolves.toBe(long.replace(/old/g, 'new'));
});

test('aborting the signal abandons the open prompt', async () => {
  const term = fakeTerminal();
  const controller = new AbortController();
  const answer = ask(term, { signal: controller.signal });
  await until(() => term.text().includes(MENU_PROMPT), 'the menu');
  controller.abort();
  await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
});

describe('createApprovalHandler', () => {
  const awaiting = (callId: string, seq: number): AgentEvent => ({
    type: 'tool_call_awaiting_approval',
    callId,
    name: 'write_file',
    args: writeArgs,
    seq,
    time: '',
  });
  const response = (callId: string, seq: number): AgentEvent => ({
    type: 'tool_call_response',
    callId,
    name: 'write_file',
    ok: true,
    preview: '',
    seq,
    time: '',
  });

  /** Rejects updates with `rejections`, in order, then accepts; the status query lists `pending`. */
  function fakeClient(rejections: string[] = [], pending: string[] = []) {
    const sent: ToolConfirmation[] = [];
    const executeUpdate = async (_update: unknown, { args: [c] }: { args: [ToolConfirmation] }) => {
      const reason = rejections.shift();
      if (reason) throw new WorkflowUpdateFailedError('Workflow Update failed', new Error(reason));
      sent.push(c);
      return `${c.outcome} recorded for ${c.callId}`;
    };
    const query = async () => ({ pendingApprovals: pending.map((callId) => ({ callId })) });
    // A running prompt whose workflow tasks do not fail: a rejected update is not a wedged prompt.
    const describe = async () => ({ status: { name: 'RUNNING' }, raw: {} });
    const handle = { executeUpdate, query, describe };
    return { sent, client: { workflow: { getHandle: () => handle } } as unknown as Client };
  }

  test('asks one call at a time, in order, and sends each answer with the update', async () => {
    const term = fakeTerminal();
    const { client, sent } = fakeClient();
    const handler = createApprovalHandler({
      client,
      workflowId: 'wf-1',
      workspace: ws,
      input: term.input,
      output: term.output,
    });
    handler.onEvent(awaiting('c1', 1));
    handler.onEvent(awaiting('c2', 2));
    await term.type('1');
    await term.type('4', MENU_PROMPT, 2);
    await term.type('', 'Reason');
    await until(() => sent.length === 2, 'two answers');
    expect(sent).toEqual([
      { callId: 'c1', outcome: 'proceed_once' },
      { callId: 'c2', outcome: 'cancel' },
    ]);
    expect(term.text()).toContain('proceed_once recorded for c1\n');
    expect(term.text().indexOf('call c2')).toBeGreaterThan(term.text().indexOf('recorded for c1'));
    await handler.close();
  });

  test('a call decided elsewhere is abandoned, open or queued; a rejected update is reported', async () => {
    const term = fakeTerminal();
    const { client, sent } = fakeClient(['call c3 is not awaiting approval (it is success)']);
    const handler = createApprovalHandler({
      client,
      workflowId: 'wf-1',
      workspace: ws,
      input: term.input,
      output: term.output,
    });
    handler.onEvent(awaiting('c1', 1));
    handler.onEvent(awaiting('c2', 2));
    handler.onEvent(awaiting('c3', 3));
    await until(() => term.text().includes(MENU_PROMPT), 'the first menu');
    handler.onEvent(response('c2', 4));
    handler.onEvent(response('c1', 5));
    await term.type('2', MENU_PROMPT, 2);
    await until(() => term.text().includes('Not recorded'), 'the rejection');
    expect(term.text()).toContain('(call c1 no longer awaits approval)');
    expect(term.text()).not.toContain('call c2)');
    expect(term.text()).toContain('Not recorded: call c3 is not awaiting approval (it is success)');
    expect(sent).toEqual([]);
    handler.onEvent(awaiting('c4', 6));
    await until(() => term.text().split(MENU_PROMPT).length === 4, 'the c4 menu');
    await handler.close();
    expect(term.text()).not.toContain('c4 no longer');
  });

  test('a rejected answer is asked again while the call still awaits approval', async () => {
    const term = fakeTerminal();
    const { client, sent } = fakeClient(['modified arguments for write_file are invalid'], ['c1']);
    const handler = createApprovalHandler({
      client,
      workflowId: 'wf-1',
      workspace: ws,
      input: term.input,
      output: term.output,
    });
    handler.onEvent(awaiting('c1', 1));
    await term.type('2');
    await term.type('1', MENU_PROMPT, 2);
    await until(() => sent.length === 1, 'the second answer');
    expect(term.text()).toContain('Not recorded: modified arguments for write_file are invalid\n');
    expect(sent).toEqual([{ callId: 'c1', outcome: 'proceed_once' }]);
    await handler.close();
  });
});
