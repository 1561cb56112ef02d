import { spawn } from 'node:child_process';
import { withoutSessionContext } from '../helpers/sent-parts';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { BIN, CliProcess, createSandbox, killAllCli, type Sandbox, NAMED_MODEL } from '../helpers/cli';
import { TEST_ENV_VARS, closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';

type Sent = { contents: { role: string; parts: { text?: string }[] }[] };

/** `chat` through the binary with its lines piped in, served by this file's worker (its fake model). */
let h: Harness;
let box: Sandbox;
let env: Record<string, string>;
beforeAll(async () => {
  h = await createHarness('chat-cli');
  box = createSandbox('chat-cli', process.env[TEST_ENV_VARS.address]);
  env = { DURABLE_AGENT_TASK_QUEUE: h.taskQueue, GOOGLE_GEMINI_BASE_URL: h.fake.url };
});
afterEach(() => killAllCli());
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** `durable-agent chat ...args` with a pipe on stdin; `input`, when given, is written and the pipe closed. */
function chat(args: string[], input?: string): CliProcess {
  const child = spawn(process.execPath, [BIN, 'chat', ...NAMED_MODEL, ...args, '-w', box.workspace], {
    cwd: box.dir,
    env: box.env(env),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  if (input !== undefined) child.stdin!.end(input);
  return new CliProcess(child, 90_000);
}

/** Each message as `role:text`, without the environment part a conversation's first message starts with. */
const conversation = (i: number) =>
  (h.fake.requests[i].body as Sent).contents.map(
    (c) =>
      `${c.role}:${withoutSessionContext(c.parts)
        .map((p) => p.text ?? '')
        .join('')}`,
  );
const newId = (name: string) => `${name}-${Date.now()}`;

test(
  'a piped chat sends each line as the next message, skips empty lines, reports an unknown command, and leaves ' +
    'at the end of input',
  async () => {
    h.fake.load([textResponse('First answer.'), textResponse('Second answer.')]);
    const id = newId('chat');
    const first = await chat([id, '--approval-mode', 'yolo'], 'first question\n\n   \n/frobnicate\nsecond question\n')
      .done;
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('First answer.\nSecond answer.\n');
    expect(first.stderr).toContain(`New session ${id}.`);
    expect(first.stderr).toContain('unknown command /frobnicate; type /help for the commands');
    expect(h.fake.requests).toHaveLength(2);
    expect(conversation(1)).toEqual(['user:first question', 'model:First answer.', 'user:second question']);

    // Coming back: a recap, then the conversation goes on where it was.
    h.fake.load([textResponse('Third answer.')]);
    const again = await chat([id], 'third question\n/close\n').done;
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`Resuming session ${id}: 2 prompt(s) so far.`);
    expect(again.stderr).toMatch(new RegExp(`Last prompt ${id}-p2 \\(completed\\), its answer:\\n  Second answer\\.`));
    expect(again.stdout).toBe('Third answer.\n');
    expect(conversation(0)).toEqual([
      'user:first question',
      'model:First answer.',
      'user:second question',
      'model:Second answer.',
      'user:third question',
    ]);
    expect(again.stderr).toContain(`session ${id} closed`);
    await h.env.client.workflow.getHandle(id).result();

    const closed = await chat([id], 'hello\n').done;
    expect(closed.code).toBe(42);
    expect(closed.stderr).toContain(`session ${id} is completed: its conversation is over`);
  },
);

test('bad ids are refused with exit 42 before anything starts: malformed, or naming a prompt', async () => {
  const malformed = await chat(['no spaces please'], '').done;
  expect(malformed.code).toBe(42);
  expect(malformed.stderr).toContain('bad session id "no spaces please"');
  h.fake.load([textResponse('ok')]);
  const id = newId('owner');
  expect((await chat([id, '--approval-mode', 'yolo'], 'hi\n/quit\n').done).code).toBe(0);
  const prompt = await chat([`${id}-p1`], '').done;
  expect(prompt.code).toBe(42);
  expect(prompt.stderr).toContain(`${id}-p1 is a prompt, not a session`);
  await h.env.client.workflow.getHandle(id).terminate('test over');
});

test(
  'Ctrl-C cancels the running prompt and keeps the session; a second Ctrl-C leaves (130); the chat resumes ' +
    'without the cancelled message',
  async () => {
    h.fake.load([
      functionCallResponse({ name: 'write_file', args: { file_path: 'x.txt', content: 'x' } }),
      textResponse('Fresh start.'),
    ]);
    const id = newId('cancel');
    const cli = chat([id]);
    cli.child.stdin!.write('write x\n');
    await cli.waitFor('stderr', /approve: durable-agent approve/);
    cli.kill('SIGINT');
    await cli.waitFor('stderr', /Cancelled\./);
    cli.child.stdin!.write('/status\n');
    await cli.waitFor('stderr', new RegExp(`session ${id}: 1 prompt\\(s\\) done; open`));
    cli.kill('SIGINT');
    expect((await cli.done).code).toBe(130);

    const again = await chat([id], 'start over\n').done;
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`Last prompt ${id}-p1 (cancelled).`);
    expect(again.stdout).toBe('Fresh start.\n');
    expect(conversation(1)).toEqual(['user:start over']);
    await h.env.client.workflow.getHandle(id).terminate('test over');
  },
);

test(
  '/steer while a prompt runs reaches it with its next model request; a line typed meanwhile is queued as the ' +
    'next message',
  async () => {
    h.fake.load([
      functionCallResponse({ name: 'write_file', args: { file_path: 's.txt', content: 's' } }),
      textResponse('Steered.'),
      textResponse('Queued one.'),
    ]);
    const id = newId('steer');
    const cli = chat([id]);
    cli.child.stdin!.write('write s\n');
    await cli.waitFor('stderr', /approve: durable-agent approve/);
    cli.child.stdin!.write('/steer call it t.txt next time\nand then this\n');
    await cli.waitFor('stderr', new RegExp(`\\(queued as ${id}-p2;`));
    expect(cli.stderr).toContain(`(steering ${id}-p1)`);
    expect((await box.run(['approve', `${id}-p1`], { env })).code).toBe(0);
    cli.child.stdin!.end();
    const done = await cli.done;
    expect(done.code).toBe(0);
    expect(done.stdout).toBe('Steered.\nQueued one.\n');
    expect(JSON.stringify(h.fake.requests[1].body)).toContain('call it t.txt next time');
    expect(conversation(2).at(-1)).toBe('user:and then this');
    await h.env.client.workflow.getHandle(id).terminate('test over');
  },
);

test('a scripted chat never polls the shared queue: its script answers it alone, and a resumed one goes on', async () => {
  h.fake.load([textResponse('The shared worker answered.')]);
  const id = newId('scripted');
  const script = box.script([textResponse('Scripted one.')]);
  const first = await chat([id, '--fake-responses', script], 'one\n').done;
  expect(first.code).toBe(0);
  expect(first.stdout).toBe('Scripted one.\n');
  const queue = (await h.env.client.workflow.getHandle(id).describe()).taskQueue;
  expect(queue).not.toBe(h.taskQueue);
  expect(h.fake.requests).toHaveLength(0); // the worker of the shared queue took none of the chat's calls

  const again = await chat([id, '--fake-responses', box.script([textResponse('Scripted two.')])], 'two\n/close\n').done;
  expect(again.code).toBe(0);
  expect(again.stdout).toBe('Scripted two.\n');
  expect((await h.env.client.workflow.getHandle(id).describe()).taskQueue).toBe(queue);
});
