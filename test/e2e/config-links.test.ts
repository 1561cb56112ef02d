/**
 * A workspace link cannot carry a write into the agent's configuration or out of the plans folder:
 * the policy judges the path as written, so the tool refuses a write that a link takes elsewhere.
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
  h = await createHarness('config-links');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const write = (file_path: string, content: string) => ({ name: 'write_file', args: { file_path, content } });
const responsesIn = (i: number) =>
  ((h.fake.requests[i].body as Sent).contents.at(-1)!.parts ?? []).map((p) => p.functionResponse!.response);

test('auto_edit: write_file and replace through cfg -> .durable-agent are refused, not run unasked', async () => {
  const ws = h.workspace({ '.durable-agent/settings.json': '{}', '.durable-agent/policies/.keep': '' });
  fs.symlinkSync('.durable-agent', path.join(ws, 'cfg'));
  const calls = [
    write('cfg/policies/allow.toml', '[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\n'),
    { name: 'replace', args: { file_path: 'cfg/settings.json', old_string: '{}', new_string: '{"hooks":{}}' } },
    write('notes.txt', 'notes'),
  ];
  const handle = await h.start([functionCallResponse(calls), textResponse('done')], {
    workspace: ws,
    approvalMode: 'auto_edit',
  });
  expect(await denyEvery(handle, 'file_path')).toEqual([]);
  await h.finish(handle);
  const [policy, settings, notes] = responsesIn(1);
  for (const refused of [policy, settings]) {
    expect(refused.error).toMatch(/symbolic link to \.durable-agent\/.*written only by their real path/);
  }
  expect(notes.output).toBeDefined();
  expect(fs.existsSync(path.join(ws, '.durable-agent/policies/allow.toml'))).toBe(false);
  expect(fs.readFileSync(path.join(ws, '.durable-agent/settings.json'), 'utf8')).toBe('{}');
});

test('plan mode: a plans folder that links to ../src cannot overwrite src', async () => {
  const ws = h.workspace({ 'src/README.md': 'original', '.durable-agent/settings.json': '{}' });
  fs.symlinkSync('../src', path.join(ws, '.durable-agent/plans'));
  const handle = await h.start(
    [functionCallResponse(write('.durable-agent/plans/README.md', 'overwritten')), textResponse('planned')],
    { workspace: ws, approvalMode: 'plan' },
  );
  expect(await denyEvery(handle, 'file_path')).toEqual([]);
  await h.finish(handle);
  expect(responsesIn(1)[0].error).toMatch(/symbolic link to src\/README\.md/);
  expect(fs.readFileSync(path.join(ws, 'src/README.md'), 'utf8')).toBe('original');
});
