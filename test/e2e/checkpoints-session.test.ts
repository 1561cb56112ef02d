/**
 * Turn numbering across a session's prompts: three `run --session ID` prompts, the one client's `turns` numbers
 * their turns from 1 across all three and carries each checkpoint forward over turns that changed nothing; `status
 * --json` of each prompt names its own turns' checkpoints. Run `npm run build` first: the binary runs `dist/`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AgentClient } from '../../src/client';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { functionCallResponse, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { closeTestEnv, getTestEnv, TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(240_000);

const sandbox = sandboxesCleanedAfterEach();
afterAll(async () => {
  await closeTestEnv();
});

test("a session's turns are numbered from 1 across its prompts, each with the checkpoint it left", async () => {
  const box = sandbox('checkpoints-session', process.env[TEST_ENV_VARS.address]);
  const session = `ckpt-session-${Date.now()}`;
  const run = async (prompt: string, script: ScriptLine[]) => {
    const args = ['run', prompt, '--session', session, '-y', '-o', 'json', '-w', box.workspace];
    const result = await box.run([...args, '--fake-responses', box.script(script)]);
    expectExit(result, 0);
    return JSON.parse(result.stdout) as { session_id: string };
  };
  const p1 = await run('write a', [
    functionCallResponse({ name: 'write_file', args: { file_path: 'a.txt', content: 'one\n' } }),
    textResponse('Written.'),
  ]);
  const p2 = await run('just answer', [textResponse('Nothing to change.')]);
  const p3 = await run('change it', [
    functionCallResponse({ name: 'run_shell_command', args: { command: 'echo two >> a.txt && rm -f none' } }),
    textResponse('Changed.'),
  ]);
  expect([p1, p2, p3].map((p) => p.session_id)).toEqual([`${session}-p1`, `${session}-p2`, `${session}-p3`]);

  const env = await getTestEnv();
  const warnings = { stderr: { write: () => true } };
  const config = loadConfig({ DURABLE_AGENT_HOME: box.home, TEMPORAL_ADDRESS: env.address });
  const client = new AgentClient(env.client, {
    config,
    taskQueue: 'unused',
    logger: createLogger('silent'),
    warnings,
  });
  const { turns } = await client.turns(session);
  expect(turns.map((t) => [t.turn, t.promptId, t.promptTurn, t.calls.map((c) => c.name)])).toEqual([
    [1, p1.session_id, 1, ['write_file']],
    [2, p1.session_id, 2, []],
    [3, p2.session_id, 1, []],
    [4, p3.session_id, 1, ['run_shell_command']],
    [5, p3.session_id, 2, []],
  ]);
  const [first, , , fourth] = turns.map((t) => t.checkpoint);
  expect(first).toMatch(/^sha256:/);
  expect(fourth).toMatch(/^sha256:/);
  expect(fourth).not.toBe(first);
  // Turns that changed nothing carry the last checkpoint forward, across prompts too.
  expect(turns.map((t) => t.checkpoint)).toEqual([first, first, first, fourth, fourth]);
  // The shell command's turn starts from the workspace the first prompt left.
  expect(turns[3].calls[0].before).toBe(first);
  expect(fs.readFileSync(path.join(box.workspace, 'a.txt'), 'utf8')).toBe('one\ntwo\n');

  const status = async (id: string) => {
    const out = await box.run(['status', id, '--json']);
    expectExit(out, 0);
    return (JSON.parse(out.stdout) as { checkpoints?: unknown }).checkpoints;
  };
  expect(await status(p1.session_id)).toEqual([
    { turn: 1, checkpoint: first },
    { turn: 2, checkpoint: first },
  ]);
  expect(await status(p3.session_id)).toEqual([
    { turn: 1, checkpoint: fourth },
    { turn: 2, checkpoint: fourth },
  ]);
});
