import * as fs from 'node:fs';
import * as path from 'node:path';
import { snapshotWorkspace } from '../../src/checkpoints';
import { fork } from '../../src/client/fork';
import { InputError } from '../../src/client/input-error';
import { rewind } from '../../src/client/rewind';
import type { TravelTurns } from '../../src/client/turn-point';
import { textResponse } from '../../src/fake-gemini';
import { closeSessionSignal } from '../../src/workflows/api';
import { agentSessionWorkflow } from '../../src/workflows/session-workflow';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { askSession } from '../helpers/session-prompts';
import { withoutSessionContext } from '../helpers/sent-parts';
import { closeTestEnv } from '../helpers/temporal-env';
import { defaultHost } from '../../src/worker/host';

type Sent = { contents: { role: string; parts: { text?: string; functionCall?: object }[] }[] };

let h: Harness;
beforeAll(async () => {
  h = await createHarness('rewind-client');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** Every file under `dir` with its bytes (base64), for byte-for-byte comparisons. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full)] = fs.readFileSync(full).toString('base64');
  }
  return out;
}

function sentTexts(): string[] {
  const body = h.fake.requests.at(-1)?.body as Sent;
  return body.contents.map((c) => `${c.role}:${withoutSessionContext(c.parts)[0].text ?? 'call or response'}`);
}

/** The harness's worker serves this machine's host. */
const here = { host: defaultHost(), temporalAddress: 'unused.invalid:7233' };

const ask = (sessionId: string, text: string) => askSession(h.env.client, sessionId, text);

/** A session of two prompts whose workspace changed after each; its turns as the checkpoints' listing gives them. */
async function twoTurns(): Promise<{ turns: TravelTurns; workspace: string; first: Record<string, string> }> {
  const workspace = h.workspace({ 'a.txt': 'A', 'bin.dat': '\u0000\u0001' });
  const id = `rewind-${Date.now()}-${Math.random().toString(16).slice(2, 6)}`;
  await h.env.client.workflow.start(agentSessionWorkflow, {
    taskQueue: h.taskQueue,
    workflowId: id,
    args: [{ defaults: { workspace, model: 'gemini-test-model', approvalMode: 'yolo', maxTurns: 20 } }],
  });
  h.fake.load([textResponse('One.'), textResponse('Two.')]);
  await ask(id, 'first');
  fs.writeFileSync(path.join(workspace, 'b.txt'), 'B\n');
  const one = await snapshotWorkspace(h.store, workspace);
  const first = filesOf(workspace);
  await ask(id, 'second');
  fs.writeFileSync(path.join(workspace, 'a.txt'), 'A changed');
  fs.rmSync(path.join(workspace, 'b.txt'));
  fs.writeFileSync(path.join(workspace, 'c.txt'), 'C');
  const two = await snapshotWorkspace(h.store, workspace);
  const transcript = (length: number) => ({ id: `session/${id}`, length });
  const turns: TravelTurns = {
    id,
    workspace,
    turns: [
      { turn: 1, promptId: `${id}-p1`, transcript: transcript(2), checkpoint: one.ref, calls: [] },
      { turn: 2, promptId: `${id}-p2`, transcript: transcript(4), checkpoint: two.ref, calls: [] },
    ],
  };
  return { turns, workspace, first };
}

test('rewind --to 1 puts files and conversation back, --undo brings everything back', async () => {
  const { turns, workspace, first } = await twoTurns();
  const latest = filesOf(workspace);
  const report = await rewind(h.env.client, h.store, turns, { to: 1, taskQueue: h.taskQueue });
  expect(filesOf(workspace)).toEqual(first);
  expect(report.files).toEqual({ created: ['b.txt'], modified: ['a.txt'], deleted: ['c.txt'] });
  h.fake.load([textResponse('Three.'), textResponse('Four.')]);
  await ask(turns.id, 'third');
  expect(sentTexts()).toEqual(['user:first', 'model:One.', 'user:third']);

  await rewind(h.env.client, h.store, turns, { undo: true, taskQueue: h.taskQueue });
  expect(filesOf(workspace)).toEqual(latest);
  await ask(turns.id, 'fourth');
  expect(sentTexts()).toEqual(['user:first', 'model:One.', 'user:second', 'model:Two.', 'user:fourth']);
  await h.env.client.workflow.getHandle(turns.id).signal(closeSessionSignal);
});

test('fork --at 1 writes the workspace into a new folder and its session continues from there', async () => {
  const { turns, workspace, first } = await twoTurns();
  const latest = filesOf(workspace);
  const dir = path.join(path.dirname(workspace), `${path.basename(workspace)}-fork`);
  const options = { at: 1, workspace: dir, taskQueue: h.taskQueue, where: here };
  const forked = await fork(h.env.client, h.store, turns, options);
  expect(filesOf(forked.workspace)).toEqual(first);
  expect(filesOf(workspace)).toEqual(latest);
  h.fake.load([textResponse('Forked.'), textResponse('Original.')]);
  await ask(forked.sessionId, 'in the fork');
  expect(sentTexts()).toEqual(['user:first', 'model:One.', 'user:in the fork']);
  await ask(turns.id, 'in the original');
  expect(sentTexts()).toEqual(['user:first', 'model:One.', 'user:second', 'model:Two.', 'user:in the original']);
});

test('bad input is refused with a clear error and changes nothing', async () => {
  const { turns, workspace } = await twoTurns();
  const latest = filesOf(workspace);
  const refusal = (run: () => Promise<unknown>) =>
    run().then(
      () => 'accepted',
      (err: Error) => `${err instanceof InputError ? 'input' : 'other'}: ${err.message}`,
    );
  const options = { taskQueue: h.taskQueue };
  expect(
    await refusal(() =>
      rewind(h.env.client, h.store, turns, { to: 1, filesOnly: true, conversationOnly: true, ...options }),
    ),
  ).toMatch(/^input: --files-only and --conversation-only/);
  expect(await refusal(() => rewind(h.env.client, h.store, turns, { to: 3, ...options }))).toBe(
    `input: turn 3 is out of range: ${turns.id} has turns 1 to 2`,
  );
  expect(
    await refusal(() => rewind(h.env.client, h.store, { ...turns, id: 'no-such-session' }, { to: 1, ...options })),
  ).toBe('input: no session or prompt no-such-session');
  const noCheckpoint = { ...turns, turns: turns.turns.map((t) => ({ ...t, checkpoint: undefined })) };
  expect(await refusal(() => rewind(h.env.client, h.store, noCheckpoint, { to: 1, ...options }))).toMatch(
    /^input: turn 1 .* has no checkpoint/,
  );
  expect(await refusal(() => rewind(h.env.client, h.store, turns, { undo: true, ...options }))).toMatch(
    /^input: nothing to undo/,
  );
  const full = path.join(path.dirname(workspace), `${path.basename(workspace)}-full`);
  fs.mkdirSync(full);
  fs.writeFileSync(path.join(full, 'keep.txt'), 'mine');
  expect(
    await refusal(() => fork(h.env.client, h.store, turns, { at: 1, workspace: full, where: here, ...options })),
  ).toMatch(/^input: --workspace .* is not empty/);
  expect(fs.readFileSync(path.join(full, 'keep.txt'), 'utf8')).toBe('mine');
  expect(filesOf(workspace)).toEqual(latest);
});
