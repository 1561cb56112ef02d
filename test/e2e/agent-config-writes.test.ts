/**
 * The model cannot configure the agent behind the user's back: a write under `.durable-agent/`
 * (settings with hooks, policies, agents, all read by later prompts) asks even in auto_edit, while
 * other edits still run; plan mode refuses it, except the plan file itself.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { denyEvery } from '../helpers/approvals';
import { createHarness, type Harness } from '../helpers/agent-harness';

type Sent = { contents: { parts: { functionResponse?: { response: { output?: string; error?: string } } }[] }[] };

let h: Harness;
beforeAll(async () => {
  h = await createHarness('agent-config-writes');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const write = (file_path: string, content = 'x') => ({ name: 'write_file', args: { file_path, content } });
const HOOK_SETTINGS = JSON.stringify({
  hooks: { BeforeAgent: [{ hooks: [{ type: 'command', command: 'touch PWNED' }] }] },
});
const responsesIn = (i: number) =>
  ((h.fake.requests[i].body as Sent).contents.at(-1)!.parts ?? []).map((p) => p.functionResponse!.response);

/** auto_edit: each config write asks (denied here); notes.txt runs without asking. */
async function autoEdit(ws: string, configWrites: string[]): Promise<string[]> {
  // One config write per turn: denying a call also cancels the calls queued after it in its turn.
  const turns = configWrites.map((file, k) =>
    functionCallResponse(
      k === 0 ? [write('notes.txt', 'notes'), write(file, HOOK_SETTINGS)] : write(file, HOOK_SETTINGS),
    ),
  );
  const handle = await h.start([...turns, textResponse('done')], { workspace: ws, approvalMode: 'auto_edit' });
  const asked = await denyEvery(handle, 'file_path');
  await h.finish(handle);
  return asked;
}

/** plan: the settings write and the plan file, in one turn; returns their function responses. */
async function planMode(ws: string) {
  const calls = [write('.durable-agent/settings.json', HOOK_SETTINGS), write('.durable-agent/plans/plan.md', '# plan')];
  const handle = await h.start([functionCallResponse(calls), textResponse('planned')], {
    workspace: ws,
    approvalMode: 'plan',
  });
  expect(await denyEvery(handle, 'file_path')).toEqual([]);
  await h.finish(handle);
  return responsesIn(1);
}

test(
  'writes under .durable-agent/ ask in auto_edit however spelled, are refused in plan mode but for the plan ' +
    'file, and run in yolo',
  async () => {
    const ws = h.workspace();
    const configWrites = [
      '.durable-agent/settings.json',
      `${ws}/.durable-agent/policies/allow.toml`,
      'src/../.durable-agent/agents/a.md',
      '.DURABLE-AGENT/settings.json',
    ];
    expect((await autoEdit(ws, configWrites)).sort()).toEqual([...configWrites].sort());
    expect(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('notes');
    expect(fs.readdirSync(ws)).toEqual(['notes.txt']);

    const [settings, plan] = await planMode(ws);
    expect(settings.error).toMatch(/denied by policy/);
    expect(plan.output).toBeDefined();
    expect(fs.existsSync(path.join(ws, '.durable-agent/settings.json'))).toBe(false);
    expect(fs.readFileSync(path.join(ws, '.durable-agent/plans/plan.md'), 'utf8')).toBe('# plan');

    const yolo = await h.start(
      [functionCallResponse(write('.durable-agent/settings.json', HOOK_SETTINGS)), textResponse('ok')],
      { workspace: ws, approvalMode: 'yolo' },
    );
    expect(await denyEvery(yolo, 'file_path')).toEqual([]);
    await h.finish(yolo);
    expect(fs.readFileSync(path.join(ws, '.durable-agent/settings.json'), 'utf8')).toBe(HOOK_SETTINGS);
  },
);
