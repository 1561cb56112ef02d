import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Content } from '@google/genai';
import { FileTranscriptStore } from '../store/file-store';
import { CUT_RESPONSE, cutTranscript } from './cut-transcript';

let root: string;
let store: FileTranscriptStore;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'da-cut-'));
  store = new FileTranscriptStore(root);
});

afterEach(() => fs.rm(root, { recursive: true, force: true }));

const text = (role: string, t: string): Content => ({ role, parts: [{ text: t }] });
const call = (name: string, id?: string): Content => ({
  role: 'model',
  parts: [{ functionCall: { id, name, args: {} } }],
});
const answer = (name: string, id?: string): Content => ({
  role: 'user',
  parts: [{ functionResponse: { id, name, response: { output: `${name} done` } } }],
});

async function write(id: string, messages: Content[]): Promise<void> {
  for (const [i, m] of messages.entries()) await store.writeMessage(id, i, m);
}

describe('cutTranscript', () => {
  it('copies the first messages under a new id and leaves the original as it was', async () => {
    const original = [text('user', 'one'), text('model', 'first'), text('user', 'two'), text('model', 'second')];
    await write('t', original);
    const cut = await cutTranscript(store, { from: { id: 't', length: 2 }, newTranscriptId: 'cut' });
    expect(cut).toEqual({ id: 'cut', length: 2 });
    expect(await store.readMessages('cut', 2)).toEqual(original.slice(0, 2));
    await store.writeMessage('cut', 2, text('user', 'three'));
    expect(await store.readMessages('t', 4)).toEqual(original);
  });

  it("keeps the responses to the last kept turn's calls when the store has them", async () => {
    await write('t', [text('user', 'go'), call('write_file'), answer('write_file'), text('model', 'done')]);
    const cut = await cutTranscript(store, { from: { id: 't', length: 2 }, newTranscriptId: 'cut' });
    expect(cut.length).toBe(3);
    expect((await store.readMessages('cut', 3))[2]).toEqual(answer('write_file'));
  });

  it('answers calls whose responses were never written, so every call keeps one response', async () => {
    await write('t', [text('user', 'go'), call('run_shell_command', 'c1')]);
    const cut = await cutTranscript(store, { from: { id: 't', length: 2 }, newTranscriptId: 'cut' });
    const [, , answers] = await store.readMessages('cut', cut.length);
    expect(answers.parts).toEqual([
      { functionResponse: { id: 'c1', name: 'run_shell_command', response: { error: CUT_RESPONSE } } },
    ]);
  });

  it('an empty cut is an empty transcript', async () => {
    await write('t', [text('user', 'one')]);
    expect(await cutTranscript(store, { from: { id: 't', length: 0 }, newTranscriptId: 'cut' })).toEqual({
      id: 'cut',
      length: 0,
    });
  });

  it('refuses a cut longer than the transcript, writing nothing', async () => {
    await write('t', [text('user', 'one')]);
    await expect(cutTranscript(store, { from: { id: 't', length: 5 }, newTranscriptId: 'cut' })).rejects.toThrow(
      /has no message 1/,
    );
    await expect(store.readMessages('cut', 1)).rejects.toThrow(/has no message 0/);
  });
});
