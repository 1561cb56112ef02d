/**
 * `/rewind` and `/restore` in `chat`, through the binary with its lines piped in one at a time, served by this file's
 * worker (its fake model). The chat's home reads the worker's store, where the checkpoints are. Run `npm run build`
 * first: the binary runs `dist/`.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { BIN, CliProcess, createSandbox, killAllCli, NAMED_MODEL, type Sandbox } from '../helpers/cli';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { closeTestEnv, TEST_ENV_VARS } from '../helpers/temporal-env';

type Sent = { contents: { role: string; parts: { text?: string; functionCall?: { name: string } }[] }[] };

let h: Harness;
let box: Sandbox;
beforeAll(async () => {
  h = await createHarness('chat-travel');
  box = createSandbox('chat-travel', process.env[TEST_ENV_VARS.address]);
  // The chat reads checkpoints where the worker writes them.
  fs.mkdirSync(box.home, { recursive: true });
  fs.symlinkSync(h.storeDir, path.join(box.home, 'store'));
});
afterEach(() => killAllCli());
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** `durable-agent chat ID --approval-mode yolo` with its input left open for `say`. */
function chat(id: string): CliProcess & { say(line: string): void } {
  const child = spawn(
    process.execPath,
    [BIN, 'chat', ...NAMED_MODEL, id, '--approval-mode', 'yolo', '-w', box.workspace],
    {
      cwd: box.dir,
      env: box.env({ DURABLE_AGENT_TASK_QUEUE: h.taskQueue, GOOGLE_GEMINI_BASE_URL: h.fake.url }),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    },
  );
  return Object.assign(new CliProcess(child, 180_000), { say: (line: string) => child.stdin!.write(`${line}\n`) });
}

const file = (name: string) => path.join(box.workspace, name);
const read = (name: string) => (fs.existsSync(file(name)) ? fs.readFileSync(file(name), 'utf8') : undefined);

/** The tool calls the conversation of the fake's first request holds, and its last user text. */
function sentConversation(): { calls: string[]; last: string | undefined } {
  const contents = (h.fake.requests[0].body as Sent).contents;
  const calls = contents.flatMap((c) => c.parts.flatMap((p) => (p.functionCall ? [p.functionCall.name] : [])));
  return { calls, last: contents.at(-1)?.parts.at(-1)?.text };
}

test('/rewind lists and goes back to a turn, /restore lists and goes back to before a call', async () => {
  fs.writeFileSync(file('keep.txt'), 'as it was\n');
  const id = `chat-travel-${Date.now()}`;
  const c = chat(id);
  h.fake.load([
    functionCallResponse({ name: 'write_file', args: { file_path: 'a.txt', content: 'one\n' } }),
    functionCallResponse({ name: 'run_shell_command', args: { command: 'echo two >> a.txt && rm keep.txt' } }),
    textResponse('Done.'),
  ]);
  c.say('change things');
  await c.waitFor('stdout', /Done\./);
  expect(read('a.txt')).toBe('one\ntwo\n');

  c.say('/rewind');
  await c.waitFor('stderr', /turn 3 /);
  expect(c.stderr).toMatch(/turn 1 [^\n]*\n[^\n]*write_file[^\n]*\n?[^\n]*a\.txt/);
  c.say('/restore');
  await c.waitFor('stderr', /Tool calls to restore[^\n]*\n\n1\.1-write_file\n2\.1-run_shell_command\n/);

  // Bad input: said plainly, nothing changes.
  c.say('/rewind 9');
  await c.waitFor('stderr', /turn 9 is out of range: .* has turns 1 to 3/);
  c.say('/restore 7.1-nothing');
  await c.waitFor('stderr', /no checkpointed tool call "7\.1-nothing" .*: \/restore lists them/);
  c.say('/rewind two');
  await c.waitFor('stderr', /\/rewind takes a turn number from 1/);
  expect(read('a.txt')).toBe('one\ntwo\n');

  c.say('/rewind 1');
  await c.waitFor('stderr', new RegExp(`Rewound ${id} to turn 1\\.`));
  expect([read('a.txt'), read('keep.txt')]).toEqual(['one\n', 'as it was\n']);
  h.fake.load([textResponse('After the rewind.')]);
  c.say('go on from turn 1');
  await c.waitFor('stdout', /After the rewind\./);
  expect(sentConversation()).toEqual({ calls: ['write_file'], last: 'go on from turn 1' });

  c.say('/restore 1.1-write_file');
  await c.waitFor('stderr', /Restored to just before 1\.1-write_file/);
  expect([read('a.txt'), read('keep.txt')]).toEqual([undefined, 'as it was\n']);
  h.fake.load([textResponse('After the restore.')]);
  c.say('go on from before the write');
  await c.waitFor('stdout', /After the restore\./);
  expect(sentConversation()).toEqual({ calls: ['write_file'], last: 'go on from before the write' });

  // Refused while a prompt runs: the files stay as the running prompt has them.
  h.fake.load([{ ...textResponse('Slowly.'), delayMs: 3000 }]);
  c.say('take your time');
  c.say('/rewind 1');
  await c.waitFor('stderr', /a prompt of session .* is running/);
  await c.waitFor('stdout', /Slowly\./);
  expect(read('a.txt')).toBeUndefined();
  c.child.stdin!.end();
  expect((await c.done).code).toBe(0);
});
