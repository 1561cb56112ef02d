import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PolicyRule } from '../../src/core/policy/types';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { denyEvery } from '../helpers/approvals';
import { createHarness, type Harness } from '../helpers/agent-harness';

/**
 * Commands that hide a second command from a naive splitter, run through the whole agent: the
 * policy must ask (or, in yolo under a deny rule, deny), and the hidden command must not run.
 */

type Sent = { contents: { parts: { functionResponse?: { response: { output?: string; error?: string } } }[] }[] };

let h: Harness;
beforeAll(async () => {
  h = await createHarness('shell-policy');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const shell = (command: string) => ({ name: 'run_shell_command', args: { command } });
const responseIn = (i: number) =>
  (h.fake.requests[i].body as Sent).contents.at(-1)!.parts[0].functionResponse!.response;

const HIDDEN = [
  'git status <(git status)#;touch PWNED',
  'git status $(cat <<EOF\nx\nEOF\n); touch PWNED',
  'git status $(cat <<EOF)\ntouch PWNED\nEOF',
];

test('under an allow rule for "git status", a command hidden behind it is asked for, not run', async () => {
  const ws = h.workspace();
  const rules: PolicyRule[] = [
    { toolName: 'run_shell_command', commandPrefix: 'git status', decision: 'allow', priority: 100, tier: 'user' },
  ];
  const script = [...['git status', ...HIDDEN].map((c) => functionCallResponse(shell(c))), textResponse('done')];
  const handle = await h.start(script, { workspace: ws, approvalMode: 'default', policyRules: rules });
  const asked = await denyEvery(handle, 'command');
  await h.finish(handle);
  expect(asked).toEqual(HIDDEN);
  expect(responseIn(1).error).toBeUndefined();
  for (let i = 2; i <= HIDDEN.length + 1; i++) expect(responseIn(i).error).toMatch(/denied/i);
  expect(fs.existsSync(path.join(ws, 'PWNED'))).toBe(false);
});

test('in yolo mode under a deny rule for "touch", the hidden command is denied, not run', async () => {
  const ws = h.workspace();
  const rules: PolicyRule[] = [
    { toolName: 'run_shell_command', commandPrefix: 'touch', decision: 'deny', priority: 100, tier: 'user' },
  ];
  const script = [...HIDDEN.map((c) => functionCallResponse(shell(c))), textResponse('done')];
  const run = await h.run(script, { workspace: ws, approvalMode: 'yolo', policyRules: rules });
  expect(run.result?.response).toBe('done');
  for (let i = 1; i <= HIDDEN.length; i++) expect(responseIn(i).error).toMatch(/denied by policy/);
  expect(fs.existsSync(path.join(ws, 'PWNED'))).toBe(false);
});
