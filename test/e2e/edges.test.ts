/**
 * Bad input at the edges of `run`: each gets a clear message and a
 * documented exit code, starts nothing it cannot finish, and loses nothing. The binary runs as a
 * real process; large inputs are generated here.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { connectClient } from '../../src/client';
import { toolConfirmationSignal } from '../../src/workflows/api';
import {
  BIN,
  CliProcess,
  sandboxesCleanedAfterEach,
  eventually,
  expectExit,
  portIsFree,
  processesOf,
  type CliResult,
  type Sandbox,
} from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sharedAddress = () => process.env[TEST_ENV_VARS.address] as string;
const sandbox = sandboxesCleanedAfterEach();

/** A port nothing listens on: a `run` that got that far would start the embedded server there. */
async function idlePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Text that no loop heuristic takes for repetition: numbered lines. */
const longText = (bytes: number) =>
  Array.from({ length: Math.ceil(bytes / 24) }, (_, i) => `line ${i} of a long text\n`).join('');

/** Runs the binary with `input` on standard input (a 3 MB prompt does not fit in one argument). */
function runWithStdin(box: Sandbox, args: string[], input: string): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: box.dir,
    env: box.env(),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdin.end(input);
  return new CliProcess(child, 60_000).done;
}

describe('input refused before anything starts (exit 42)', () => {
  test('a 3 MB prompt names its size and the limit', async () => {
    const port = await idlePort();
    const box = sandbox('big-prompt', `127.0.0.1:${port}`);
    const script = box.script([textResponse('never asked')]);
    const result = await runWithStdin(
      box,
      ['run', '--fake-responses', script, '-w', box.workspace],
      longText(3 * 1024 * 1024),
    );
    expectExit(result, 42);
    expect(result.stderr).toMatch(/the prompt is 3\.\d MiB; at most 256 KiB .*file in the workspace/);
    expect(await portIsFree(port)).toBe(true);
  });

  test('a missing, non-JSON-Lines or unknown-method --fake-responses file names the file and the line', async () => {
    const port = await idlePort();
    const box = sandbox('bad-script', `127.0.0.1:${port}`);
    const good = JSON.stringify(textResponse('ok'));
    const files = {
      missing: path.join(box.dir, 'missing.jsonl'),
      prose: path.join(box.dir, 'prose.jsonl'),
      method: path.join(box.dir, 'method.jsonl'),
    };
    fs.writeFileSync(files.prose, `${good}\nthis is not JSON\n`);
    fs.writeFileSync(files.method, `${good}\n${good}\n${JSON.stringify({ method: 'embedContent', response: {} })}\n`);
    const cases: [string, RegExp][] = [
      [files.missing, /missing\.jsonl: no such file/],
      [files.prose, /prose\.jsonl line 2: invalid JSON/],
      [files.method, /method\.jsonl line 3: /],
    ];
    for (const [file, message] of cases) {
      const result = await box.run(['run', 'hello', '--fake-responses', file, '-w', box.workspace]);
      expectExit(result, 42);
      expect(result.stderr).toMatch(message);
    }
    expect(await portIsFree(port)).toBe(true);
    expect(processesOf(box.home)).toEqual([]);
  });

  test('an empty, blank or malformed model name', async () => {
    const port = await idlePort();
    const box = sandbox('model-name', `127.0.0.1:${port}`);
    const script = box.script([textResponse('never asked')]);
    for (const model of ['', '   ', 'gemini 2.5', 'models/']) {
      const result = await box.run(['run', 'hello', '-m', model, '--fake-responses', script, '-w', box.workspace]);
      expectExit(result, 42);
      expect(result.stderr).toMatch(/-m\/--model: .* is not a model name/);
    }
    expect(await portIsFree(port)).toBe(true);
  });
});

describe('large or malformed model output', () => {
  test(
    'a 3 MB answer ends the prompt at once: its beginning is printed with a note, the transcript keeps it ' + 'whole',
    async () => {
      const box = sandbox('big-answer', sharedAddress());
      const answer = longText(3 * 1024 * 1024);
      const script = box.script([textResponse(answer)]);
      const result = await box.run(
        ['run', 'write a lot', '--fake-responses', script, '-w', box.workspace, '-o', 'json'],
        { timeoutMs: 60_000 },
      );
      expectExit(result, 0);
      const out = JSON.parse(result.stdout);
      expect(out.response.startsWith(answer.slice(0, 60_000))).toBe(true);
      expect(out.response).toMatch(new RegExp(`answer cut here: ${answer.length} characters`));
    },
  );

  test('a 2 KiB function name is answered with tool_not_registered and the prompt goes on', async () => {
    const box = sandbox('long-name', sharedAddress());
    const script = box.script([
      functionCallResponse({ name: 'f'.repeat(2100), args: { a: 1 } }),
      textResponse('went on'),
    ]);
    const result = await box.run([
      'run',
      'call it',
      '--fake-responses',
      script,
      '-w',
      box.workspace,
      '--approval-mode',
      'yolo',
      '-o',
      'stream-json',
    ]);
    expectExit(result, 0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const toolResult = lines.find((l) => l.type === 'tool_result');
    expect(toolResult).toMatchObject({
      status: 'error',
      error: { type: 'tool_not_registered', message: expect.stringContaining(`${'f'.repeat(64)}...`) },
    });
    expect(toolResult.error.message.length).toBeLessThan(1000);
    expect(lines.at(-1)).toMatchObject({ type: 'result', status: 'success' });
    expect(lines.find((l) => l.type === 'message' && l.role === 'assistant')?.content).toBe('went on');
  });
});

describe('a 3 MB signal', () => {
  test(
    'modify arguments over the limit are refused by the client before sending; the call still awaits an ' + 'answer',
    async () => {
      const box = sandbox('big-signal', sharedAddress());
      const script = box.script([
        functionCallResponse({ name: 'write_file', args: { file_path: 'a.txt', content: 'A' } }),
        textResponse('written'),
      ]);
      const run = box.start(['run', 'write a', '--fake-responses', script, '-w', box.workspace]);
      const [, id, callId] = await run.waitFor('stderr', /approve (prompt-\S+) (\S+)/);
      const client = await connectClient(sharedAddress(), 'default');
      try {
        const big = { callId, outcome: 'modify', args: { file_path: 'a.txt', content: longText(3 * 1024 * 1024) } };
        await expect(client.workflow.getHandle(id).signal(toolConfirmationSignal, big)).rejects.toThrow(
          /toolConfirmation signal is 3\.\d MiB; at most 256 KiB/,
        );
      } finally {
        await client.connection.close();
      }
      expectExit(await box.run(['approve', id, callId]), 0);
      expectExit(await run.done, 0);
      expect(fs.readFileSync(path.join(box.workspace, 'a.txt'), 'utf8')).toBe('A');
    },
  );
});

describe('signals to run', () => {
  test('SIGTERM stops the embedded server and worker it started; the prompt resumes under a later server', async () => {
    const port = await idlePort();
    const box = sandbox('sigterm', `127.0.0.1:${port}`);
    const slow = box.script([textResponse('slow answer', { delayMs: 4000 })]);
    const run = box.start(['run', 'take your time', '--fake-responses', slow, '-w', box.workspace]);
    const [, id] = await run.waitFor('stderr', /prompt (prompt-\S+) started/);
    await new Promise((r) => setTimeout(r, 1500)); // let the model call begin
    process.kill(run.pid, 'SIGTERM'); // the binary alone, as a service manager would
    const result = await run.done;
    expectExit(result, 143);
    expect(result.stderr).toMatch(/not cancelled/);
    const queue = /DURABLE_AGENT_TASK_QUEUE=(\S+)/.exec(result.stderr)?.[1];
    expect(queue).toBeDefined();
    await eventually(() => processesOf(box.home).length === 0, 15_000, 'no process of the home left');
    expect(await portIsFree(port)).toBe(true);

    const fast = box.script([textResponse('slow answer')]);
    const server = box.start(['server', '--fake-responses', fast], { env: { DURABLE_AGENT_TASK_QUEUE: queue } });
    await server.waitFor('stderr', /Ctrl-C stops/);
    const status = await eventually(
      async () => {
        const r = await box.run(['status', id, '--json']);
        const s = r.code === 0 ? JSON.parse(r.stdout) : undefined;
        return s?.status === 'completed' && s;
      },
      60_000,
      `${id} to complete`,
    );
    expect(status.response).toBe('slow answer');
    server.kill('SIGTERM');
    await server.done;
  });
});
