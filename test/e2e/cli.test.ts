/**
 * The `durable-agent` binary end to end (the README's contracts: command line, environment, approvals
 * as signals): each test spawns `bin/durable-agent.js` with stdin closed, checks exit codes and
 * output, and leaves no process behind. Run `npm run build` first: the binary runs `dist/`.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { GoogleGenAI } from '@google/genai';
import {
  errorLine,
  FakeGeminiServer,
  functionCallResponse,
  streamLine,
  textResponse,
  type ScriptLine,
} from '../../src/fake-gemini';
import {
  eventually,
  expectExit,
  freePortWithUi,
  holdPort,
  portIsFree,
  sandboxesCleanedAfterEach,
  processesOf,
  type HeldPort,
  type Sandbox,
  NAMED_MODEL,
} from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sharedAddress = () => process.env[TEST_ENV_VARS.address] as string;
const sandbox = sandboxesCleanedAfterEach();

/** The model writes `file`, then answers `answer`. */
const writeThenAnswer = (file: string, content: string, answer: string): ScriptLine[] => [
  functionCallResponse({ name: 'write_file', args: { file_path: file, content } }),
  textResponse(answer),
];

const readFile = (dir: string, name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
const promptIdIn = (stderr: string) => /prompt (prompt-\S+) started/.exec(stderr)?.[1];

describe('run against a reachable server', () => {
  test('yolo: the script’s write_file changes the workspace and the answer is on stdout', async () => {
    const box = sandbox('yolo', sharedAddress());
    const script = box.script(writeThenAnswer('hello.txt', 'hi there\n', 'I wrote hello.txt.'));
    const result = await box.run([
      'run',
      'write hello',
      '--fake-responses',
      script,
      '--approval-mode',
      'yolo',
      '-w',
      box.workspace,
    ]);
    expectExit(result, 0);
    expect(result.stdout.trim()).toBe('I wrote hello.txt.');
    expect(readFile(box.workspace, 'hello.txt')).toBe('hi there\n');
  });

  test(
    '-o stream-json prints init, the user message, tool_use, tool_result, the answer and a successful result, ' +
      'in order',
    async () => {
      const box = sandbox('stream', sharedAddress());
      const script = box.script(writeThenAnswer('s.txt', 'S', 'all written'));
      const result = await box.run([
        'run',
        'write s',
        '--fake-responses',
        script,
        '--approval-mode',
        'yolo',
        '-w',
        box.workspace,
        '-o',
        'stream-json',
      ]);
      expectExit(result, 0);
      const lines = result.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const kinds = lines.map((l) => (l.type === 'message' ? `message:${l.role}` : l.type));
      const at = (kind: string) => kinds.indexOf(kind);
      expect(lines[at('init')]).toMatchObject({ session_id: expect.stringMatching(/\S/), model: expect.any(String) });
      expect(at('message:user')).toBeGreaterThan(-1);
      expect(at('message:user')).toBeLessThan(at('tool_use'));
      expect(lines[at('tool_use')]).toMatchObject({ tool_name: 'write_file', parameters: { file_path: 's.txt' } });
      expect(at('tool_use')).toBeLessThan(at('tool_result'));
      expect(lines[at('tool_result')]).toMatchObject({ tool_id: lines[at('tool_use')].tool_id, status: 'success' });
      expect(at('tool_result')).toBeLessThan(at('message:assistant'));
      expect(lines[at('message:assistant')].content).toBe('all written');
      expect(kinds.filter((k) => k === 'result')).toHaveLength(1);
      expect(lines.at(-1)).toMatchObject({ type: 'result', status: 'success', stats: expect.any(Object) });
      for (const line of lines) expect(line.timestamp).toEqual(expect.any(String));
      expect(kinds[0]).toBe('init'); // as in Gemini CLI: a consumer learns session_id before anything else
    },
  );

  test('-o json prints one object (session_id, response, stats); status --json, list and watch show it', async () => {
    const box = sandbox('inspect', sharedAddress());
    const script = box.script(writeThenAnswer('i.txt', 'I', 'inspected'));
    const run = await box.run([
      'run',
      'write i',
      '--fake-responses',
      script,
      '--approval-mode',
      'yolo',
      '-w',
      box.workspace,
      '-o',
      'json',
    ]);
    expectExit(run, 0);
    // One object: JSON.parse fails on anything printed before or after it.
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({
      session_id: expect.stringMatching(/\S/),
      response: 'inspected',
      stats: expect.any(Object),
    });
    expect(out).not.toHaveProperty('error');
    const id: string = out.session_id;

    const status = await box.run(['status', id, '--json']);
    expectExit(status, 0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      workflowId: id,
      status: 'completed',
      turns: 2,
      pendingApprovals: [],
      response: 'inspected',
      stats: expect.any(Object),
    });

    const list = await box.run(['list']);
    expectExit(list, 0);
    expect(list.stdout).toContain(id);

    // The prompt ran on the finished `run`'s own worker: nothing polls its task queue any more.
    const watch = await box.run(['watch', id]);
    expectExit(watch, 0);
    expect(watch.stdout).toContain('inspected');
    expect(watch.stderr).toContain('write_file');
  });

  test('status of an unknown id fails with a clear message', async () => {
    const box = sandbox('unknown', sharedAddress());
    const result = await box.run(['status', 'prompt-that-never-was', '--json']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/not found.*prompt-that-never-was/i);
    expect(result.stdout).toBe('');
  });
});

describe('exit codes of a prompt’s outcome', () => {
  test('the turn limit exits 53', async () => {
    const box = sandbox('turns', sharedAddress());
    const script = box.script(writeThenAnswer('t.txt', 'T', 'never reached'));
    const result = await box.run([
      'run',
      'go',
      '--fake-responses',
      script,
      '--approval-mode',
      'yolo',
      '-w',
      box.workspace,
      '--max-turns',
      '1',
    ]);
    expectExit(result, 53);
    expect(result.stderr).toMatch(/limit of 1 model turn/);
  });

  test('the session turn limit exits 53 and says which limit was reached', async () => {
    const box = sandbox('session-turns', sharedAddress());
    const script = box.script(writeThenAnswer('s.txt', 'S', 'never reached'));
    const args = ['run', 'go', '--fake-responses', script, '--approval-mode', 'yolo', '-w', box.workspace];
    const result = await box.run([...args, '--max-session-turns', '1']);
    expectExit(result, 53);
    expect(result.stderr).toMatch(/session's limit of 1 model turn.*--max-session-turns/s);
    expect(readFile(box.workspace, 's.txt')).toBe('S');
  });

  test('a 400 from the model exits 1 with the message on stderr', async () => {
    const box = sandbox('400', sharedAddress());
    const script = box.script([errorLine(400, 'INVALID_ARGUMENT', 'the request is malformed xyz')]);
    const result = await box.run(['run', 'go', '--fake-responses', script, '-w', box.workspace]);
    expectExit(result, 1);
    expect(result.stderr).toContain('the request is malformed xyz');
  });

  test('a 403 from the model exits 41', async () => {
    const box = sandbox('403', sharedAddress());
    const script = box.script([errorLine(403, 'PERMISSION_DENIED', 'key not valid xyz')]);
    const result = await box.run(['run', 'go', '--fake-responses', script, '-w', box.workspace]);
    expectExit(result, 41);
    expect(result.stderr).toContain('key not valid xyz');
  });

  test('four malformed answers in a row, then good ones: the prompt asks the model to go on and exits 0', async () => {
    const box = sandbox('malformed', sharedAddress());
    const malformed = streamLine([
      { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'MALFORMED_FUNCTION_CALL' }] },
    ]);
    const script = box.script([
      malformed,
      malformed,
      malformed,
      malformed,
      ...writeThenAnswer('after.txt', 'written\n', 'Recovered and wrote after.txt.'),
    ]);
    const args = ['run', 'go', '--fake-responses', script, '--approval-mode', 'yolo', '-w', box.workspace];
    const result = await box.run(args);
    expectExit(result, 0);
    expect(result.stdout.trim()).toBe('Recovered and wrote after.txt.');
    expect(readFile(box.workspace, 'after.txt')).toBe('written\n');
  });
});

describe('bad input or configuration starts nothing', () => {
  let fake: FakeGeminiServer;
  let box: Sandbox;
  let held: HeldPort;
  beforeEach(async () => {
    fake = await FakeGeminiServer.start({ script: [textResponse('should never be asked')] });
    // Held for the test: anything that got as far as Temporal would probe this address first.
    held = await holdPort();
    box = sandbox('input', held.address);
  });
  afterEach(() => Promise.all([fake.close(), held.release()]));

  async function expectNothingStarted(
    args: string[],
    code: number,
    message: RegExp,
    env: Record<string, string | undefined> = { GOOGLE_GEMINI_BASE_URL: fake.url },
  ) {
    const result = await box.run(args, { env });
    expectExit(result, code);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(fake.requests).toHaveLength(0);
    expect(fs.existsSync(path.join(box.home, 'temporal'))).toBe(false);
    expect(held.connections()).toBe(0);
  }

  test.each([
    ['an unknown option', ['run', 'hi', '--no-such-option'], /unknown option '--no-such-option'/],
    ['an empty prompt', ['run', ''], /prompt is empty/],
    ['no prompt and nothing on stdin', ['run'], /prompt is empty/],
    ['--max-turns 0', ['run', 'hi', '--max-turns', '0'], /--max-turns.*positive/],
    ['--max-session-turns 0', ['run', 'hi', '--max-session-turns', '0'], /--max-session-turns.*positive/],
    ['--max-session-turns 2.5', ['run', 'hi', '--max-session-turns', '2.5'], /--max-session-turns.*positive/],
    [
      '--approval-mode bogus',
      ['run', 'hi', '--approval-mode', 'bogus'],
      /--approval-mode.*bogus.*default, auto_edit, yolo, plan/,
    ],
  ])('%s exits 42', async (_what, args, message) => {
    await expectNothingStarted([...args, '-w', box.workspace], 42, message);
  });

  test('a workspace that does not exist exits 42', async () => {
    await expectNothingStarted(['run', 'hi', '-w', path.join(box.dir, 'missing')], 42, /missing is not a directory/);
  });

  test('no GEMINI_API_KEY and no fake responses exits 41', async () => {
    await expectNothingStarted(['run', 'hi', '-w', box.workspace], 41, /GEMINI_API_KEY is not set/, {});
  });

  test('GOOGLE_GEMINI_BASE_URL that is not a URL exits 52', async () => {
    await expectNothingStarted(['run', 'hi', '-w', box.workspace], 52, /GOOGLE_GEMINI_BASE_URL/, {
      GOOGLE_GEMINI_BASE_URL: 'not-a-url',
    });
  });

  test('a bad policy file exits 52 and names the file and the rule', async () => {
    const dir = path.join(box.workspace, '.durable-agent', 'policies');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'team.toml'), '[[rule]]\ntoolName = "write_file"\ndecision = "allow"\n');
    try {
      // Only a trusted workspace's own policies are read.
      await expectNothingStarted(
        ['run', 'hi', '-w', box.workspace, '--trust-workspace'],
        52,
        /team\.toml: rule 1: priority/,
      );
    } finally {
      fs.rmSync(path.join(box.workspace, '.durable-agent'), { recursive: true, force: true });
    }
  });
});

describe('approvals from another shell', () => {
  test('the printed `temporal workflow signal` line approves the call', async () => {
    const box = sandbox('signal', sharedAddress());
    const script = box.script(writeThenAnswer('notes.txt', 'approved\n', 'Saved.'));
    const run = box.start(['run', 'save notes', '--fake-responses', script, '-w', box.workspace]);
    const [, id, callId] = await run.waitFor('stderr', /durable-agent approve (\S+) (\S+)/);
    const signalLine =
      `temporal workflow signal --workflow-id ${id} --name toolConfirmation --input ` +
      `'{"callId":"${callId}","outcome":"proceed_once"}'`;
    const printed = (await run.waitFor('stderr', /temporal workflow signal .*$/m))[0];
    expect(printed).toBe(signalLine);
    expect(fs.existsSync(path.join(box.workspace, 'notes.txt'))).toBe(false);

    for (const args of [['pending', id], ['pending']]) {
      const pending = await box.run(args);
      expectExit(pending, 0);
      expect(pending.stdout).toMatch(new RegExp(`${id}\\s+${callId}\\s+write_file`));
    }

    const temporalDir = path.dirname(process.env[TEST_ENV_VARS.cliPath] as string);
    const env = { ...box.env(), PATH: `${temporalDir}${path.delimiter}${process.env.PATH}` };
    await promisify(execFile)('bash', ['-c', printed], { env, timeout: 30_000 });

    const result = await run.done;
    expectExit(result, 0);
    expect(result.stdout).toContain('Saved.');
    expect(readFile(box.workspace, 'notes.txt')).toBe('approved\n');
  });

  test('`approve ID` takes the only pending call; `deny ID --reason` tells the model and writes nothing', async () => {
    const fake = await FakeGeminiServer.start({
      script: [
        functionCallResponse({ name: 'write_file', args: { file_path: 'a.txt', content: 'A' } }),
        functionCallResponse({ name: 'write_file', args: { file_path: 'b.txt', content: 'B' } }),
        textResponse('understood'),
      ],
    });
    try {
      const box = sandbox('approve-deny', sharedAddress());
      // A task queue of its own: the worker in this `run` talks to this test's fake only.
      const env = { GOOGLE_GEMINI_BASE_URL: fake.url, DURABLE_AGENT_TASK_QUEUE: `cli-approve-${Date.now()}` };
      const run = box.start(['run', 'write two files', ...NAMED_MODEL, '-w', box.workspace], { env });
      const [, id] = await run.waitFor('stderr', /durable-agent approve (\S+) \S+/);

      const approve = await box.run(['approve', id]);
      expectExit(approve, 0);
      await run.waitFor('stderr', /needs approval[\s\S]*needs approval/);
      const deny = await box.run(['deny', id, '--reason', 'use notes.md instead']);
      expectExit(deny, 0);
      expect(deny.stdout).toMatch(/^call \S+ denied\n$/);

      const result = await run.done;
      expectExit(result, 0);
      expect(result.stdout).toContain('understood');
      expect(readFile(box.workspace, 'a.txt')).toBe('A');
      expect(fs.existsSync(path.join(box.workspace, 'b.txt'))).toBe(false);
      expect(fake.requests).toHaveLength(3);
      const told = JSON.stringify(fake.requests[2].body);
      expect(told).toContain('use notes.md instead');
      expect(told.match(/Reason:/g)).toHaveLength(1);
      fake.assertComplete();
    } finally {
      await fake.close();
    }
  });

  test('`cancel ID` on a prompt awaiting approval: `run` exits 130 and status says cancelled', async () => {
    const box = sandbox('cancel', sharedAddress());
    const script = box.script(writeThenAnswer('c.txt', 'C', 'never'));
    const run = box.start(['run', 'write c', '--fake-responses', script, '-w', box.workspace]);
    await run.waitFor('stderr', /needs approval/);
    const id = promptIdIn(run.stderr) as string;

    const cancel = await box.run(['cancel', id]);
    expectExit(cancel, 0);
    const result = await run.done;
    expectExit(result, 130);
    expect(fs.existsSync(path.join(box.workspace, 'c.txt'))).toBe(false);

    const status = await box.run(['status', id, '--json']);
    expectExit(status, 0);
    expect(JSON.parse(status.stdout)).toMatchObject({ workflowId: id, status: 'cancelled' });
  });
});

describe('the embedded server', () => {
  test('run starts it when nothing answers, its leash stops it after the run, and its SQLite state outlives it', async () => {
    const port = await freePortWithUi();
    const box = sandbox('embedded', `127.0.0.1:${port}`);
    const script = box.script(writeThenAnswer('e.txt', 'E', 'embedded answer'));
    const run = await box.run([
      'run',
      'write e',
      '--fake-responses',
      script,
      '--approval-mode',
      'yolo',
      '-w',
      box.workspace,
      '-o',
      'json',
    ]);
    expectExit(run, 0);
    const out = JSON.parse(run.stdout);
    expect(out.response).toBe('embedded answer');
    expect(readFile(box.workspace, 'e.txt')).toBe('E');
    expect(fs.existsSync(path.join(box.home, 'temporal', 'dev.db'))).toBe(true);
    // `run` does not wait for its server's shutdown: the server's leash ends it just after.
    await eventually(() => processesOf(box.home).length === 0, 30_000, 'the embedded server to stop after the run');
    expect(await portIsFree(port)).toBe(true);
    expect(await portIsFree(port + 1000)).toBe(true);

    const status = await box.run(['status', out.session_id, '--json']);
    expectExit(status, 0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      workflowId: out.session_id,
      status: 'completed',
      response: 'embedded answer',
    });
    expect(processesOf(box.home)).toEqual([]);
    expect(await portIsFree(port)).toBe(true);
  });

  test('run --detach leaves a background server that finishes the prompt; its pid file stops it', async () => {
    const port = await freePortWithUi();
    const box = sandbox('detach', `127.0.0.1:${port}`);
    const script = box.script(writeThenAnswer('d.txt', 'D', 'detached answer'));
    const detach = await box.run([
      'run',
      'write d',
      '--detach',
      '--fake-responses',
      script,
      '--approval-mode',
      'yolo',
      '-w',
      box.workspace,
    ]);
    expectExit(detach, 0);
    expect(detach.stdout).toMatch(/^prompt-\S+\n$/);
    const id = detach.stdout.trim();
    try {
      expect(await portIsFree(port)).toBe(false);
      const watch = await box.run(['watch', id]);
      expectExit(watch, 0);
      expect(watch.stdout).toContain('detached answer');
      const status = await box.run(['status', id, '--json']);
      expect(JSON.parse(status.stdout)).toMatchObject({ status: 'completed', response: 'detached answer' });
      expect(readFile(box.workspace, 'd.txt')).toBe('D');

      const pidFile = path.join(box.home, 'server.pid');
      const pid = Number(
        await eventually(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8'), 30_000, pidFile),
      );
      process.kill(pid, 'SIGTERM');
      await eventually(
        async () => processesOf(box.home).length === 0 && (await portIsFree(port)),
        30_000,
        'the background server to stop',
      );
      expect(fs.existsSync(pidFile)).toBe(false);
    } finally {
      for (const pid of processesOf(box.home)) process.kill(pid, 'SIGKILL');
    }
  });
});

describe('fake-gemini', () => {
  test('serves the script to the real SDK; SIGINT reports and exits 0 when every line was used', async () => {
    const box = sandbox('fake-ok');
    const fake = box.start(['fake-gemini', '--script', box.script([textResponse('pong')])]);
    const [, url] = await fake.waitFor('stdout', /^(http:\/\/\S+)\n/);
    const ai = new GoogleGenAI({ apiKey: 'any', httpOptions: { baseUrl: url } });
    let text = '';
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'ping' }))
      text += chunk.text ?? '';
    expect(text).toBe('pong');
    fake.child.kill('SIGINT');
    const result = await fake.done;
    expectExit(result, 0);
    expect(result.stderr).toMatch(/1 request\(s\), 0 unexpected, 0 of 1 line\(s\) left over/);
  });

  test('SIGINT with lines left over exits 1 and names them', async () => {
    const box = sandbox('fake-left');
    const fake = box.start(['fake-gemini', '--script', box.script([textResponse('one'), textResponse('two')])]);
    const [, url] = await fake.waitFor('stdout', /^(http:\/\/\S+)\n/);
    const ai = new GoogleGenAI({ apiKey: 'any', httpOptions: { baseUrl: url } });
    let chunks = 0;
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'ping' }))
      chunks += chunk.text ? 1 : 0;
    expect(chunks).toBe(1);
    fake.child.kill('SIGINT');
    const result = await fake.done;
    expectExit(result, 1);
    expect(result.stderr).toMatch(/1 of 2 line\(s\) left over/);
    expect(result.stderr).toMatch(/leftover: .*two/);
  });
});

describe('agent files', () => {
  /** Only a trusted workspace's own agents are read. */
  const TRUSTED = { DURABLE_AGENT_TRUST_WORKSPACE: '1' };

  test('a workspace agent file is offered to the model and runs as a sub-agent', async () => {
    const box = sandbox('agent-file', sharedAddress());
    const dir = path.join(box.workspace, '.durable-agent', 'agents');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'counter.md'),
      '---\nname: counter\ndescription: Counts the files in the workspace.\ntools: [list_directory]\n---\nCount ' +
        'files and report the number.\n',
    );
    const script = box.script([
      functionCallResponse({ name: 'invoke_agent', args: { agent_name: 'counter', prompt: 'count' } }),
      functionCallResponse({ name: 'list_directory', args: { dir_path: '.' } }),
      functionCallResponse({ name: 'complete_task', args: { result: 'one directory' } }),
      textResponse('The counter agent says: one directory.'),
    ]);
    const result = await box.run(
      ['run', 'count files', '--fake-responses', script, '--approval-mode', 'yolo', '-w', box.workspace],
      { env: TRUSTED },
    );
    expectExit(result, 0);
    expect(result.stdout).toContain('The counter agent says: one directory.');
  });

  test('a bad agent file exits 52 and names the file', async () => {
    const box = sandbox('agent-bad', sharedAddress());
    const dir = path.join(box.workspace, '.durable-agent', 'agents');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'broken.md'), '---\nname: Broken-Name\ndescription: x\n---\nbody\n');
    const result = await box.run(
      ['run', 'hi', '--fake-responses', box.script([textResponse('never')]), '-w', box.workspace],
      { env: TRUSTED },
    );
    expectExit(result, 52);
    expect(result.stderr).toMatch(/broken\.md/);
  });
});
