import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentEvent } from '../core/events';
import { externalizeLargeStrings } from '../store/blobs';
import { FileTranscriptStore } from '../store/file-store';
import { approvalHint } from '../cli/approval-hint';
import { showFullArgs, withFullArgs } from './full-args';

let dir: string;
let store: FileTranscriptStore;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'da-full-args-'));
  store = new FileTranscriptStore(dir);
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

const command = `git status${' '.repeat(2100)}; touch PWNED`;

describe('showFullArgs', () => {
  it('replaces markers by their full text from the store', async () => {
    const held = await externalizeLargeStrings({ command, list: [command] }, store);
    expect(await showFullArgs(held, store)).toEqual({ command, list: [command] });
  });

  it('keeps an unreadable marker and says plainly that it is not shown in full, and how long it is', async () => {
    const held = (await externalizeLargeStrings({ command }, store)) as unknown as { command: { preview: string } };
    const shown = (await showFullArgs(held, new FileTranscriptStore(path.join(dir, 'other')))) as {
      command: { note: string; preview: string };
    };
    expect(shown.command.note).toBe(
      `not shown in full: this argument is ${command.length} characters long and the transcript store that holds ` +
        `it could not be read from here; "preview" is only its first 200 characters`,
    );
    expect(shown.command.preview).toBe(held.command.preview);
    expect(await showFullArgs(held, undefined)).toEqual(shown);
  });

  it('gives the approval hint the whole command, uncut', async () => {
    const event: AgentEvent = {
      type: 'tool_call_awaiting_approval',
      callId: 'c1',
      name: 'run_shell_command',
      args: await externalizeLargeStrings({ command }, store),
      seq: 0,
      time: '',
    };
    const shown = (await withFullArgs(event, store)) as Extract<AgentEvent, { type: 'tool_call_awaiting_approval' }>;
    expect(approvalHint('wf', shown.callId, shown.name, shown.args)).toContain(
      `{"command":${JSON.stringify(command)}} needs approval`,
    );
  });
});
