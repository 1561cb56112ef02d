import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { ToolOutcome } from '../core/types';
import { externalizeLargeStrings } from '../store/blobs';
import { FileTranscriptStore } from '../store/file-store';
import { runTool, type RunToolInput } from './run-tool';

let dirs: string[] = [];
let workspace: string;
let storeDir: string;
let store: FileTranscriptStore;

beforeEach(async () => {
  const made = await Promise.all(
    ['da-run-tool-ws-', 'da-run-tool-store-'].map((p) => fs.mkdtemp(path.join(os.tmpdir(), p))),
  );
  dirs.push(...made);
  workspace = await fs.realpath(made[0]);
  storeDir = made[1];
  store = new FileTranscriptStore(storeDir);
});

afterEach(async () => {
  await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
  dirs = [];
});

const input = (name: string, args: Record<string, unknown>): RunToolInput => ({
  callId: 'call_1_0',
  name,
  args,
  workspace,
  shellTimeoutMs: 60_000,
});

function run(
  name: string,
  args: Record<string, unknown>,
  env = new MockActivityEnvironment(),
  heartbeatIntervalMs?: number,
): Promise<ToolOutcome> {
  return env.run(runTool, { store, heartbeatIntervalMs }, input(name, args));
}

/** The `response` object the model will be sent, read back from disk by a fresh store. */
async function responseOf(outcome: ToolOutcome): Promise<Record<string, unknown>> {
  if (!outcome.responseRef) throw new Error('outcome has no responseRef');
  return JSON.parse(await new FileTranscriptStore(storeDir).getBlob(outcome.responseRef));
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

describe('runTool', () => {
  it('runs read_file and stores the model-facing response by reference', async () => {
    await fs.writeFile(path.join(workspace, 'a.txt'), 'line one\nline two\n');
    const outcome = await run('read_file', { file_path: 'a.txt' });
    expect(outcome).toMatchObject({ callId: 'call_1_0', name: 'read_file', ok: true, preview: 'line one\nline two\n' });
    expect(outcome.errorKind).toBeUndefined();
    expect(await responseOf(outcome)).toEqual({ output: 'line one\nline two\n' });
  });

  it('returns invalid arguments to the model instead of throwing', async () => {
    const outcome = await run('read_file', { file_path: 42 });
    expect(outcome).toMatchObject({ ok: false, errorKind: 'invalid_tool_params' });
    expect((await responseOf(outcome)).error).toMatch(/Invalid arguments for read_file/);
  });

  it('resolves a blob-marker argument to its full text before write_file runs', async () => {
    const content = 'x'.repeat(5000) + '\nend\n';
    const args = await externalizeLargeStrings({ file_path: 'big.txt', content }, store);
    expect(JSON.stringify(args).length).toBeLessThan(1000);
    const outcome = await run('write_file', args);
    expect(outcome.ok).toBe(true);
    expect(await fs.readFile(path.join(workspace, 'big.txt'), 'utf8')).toBe(content);
  });

  it('answers a marker whose blob is gone with an error that names the reference and no store path', async () => {
    const marker = { $blob: `sha256:${'b'.repeat(64)}`, size: 5000, preview: 'echo' };
    const outcome = await run('run_shell_command', { command: marker });
    expect(outcome).toMatchObject({ ok: false, errorKind: 'invalid_tool_params' });
    const error = (await responseOf(outcome)).error as string;
    expect(error).toMatch(/is no longer in the transcript store/);
    expect(error).toContain(marker.$blob);
    expect(error).not.toContain(storeDir);
  });

  it('does not re-run a shell command on a retry attempt and reports the outcome as unknown', async () => {
    const outcome = await run(
      'run_shell_command',
      { command: 'touch ran-again' },
      new MockActivityEnvironment({ attempt: 2 }),
    );
    expect(outcome).toMatchObject({ ok: false, errorKind: 'outcome_unknown' });
    expect((await responseOf(outcome)).error).toMatch(/not run again/);
    expect(await exists(path.join(workspace, 'ran-again'))).toBe(false);
  });

  it('runs the same shell command on a first attempt', async () => {
    const outcome = await run('run_shell_command', { command: 'touch ran-once' });
    expect(outcome.ok).toBe(true);
    expect(await exists(path.join(workspace, 'ran-once'))).toBe(true);
  });

  it('heartbeats while a command runs', async () => {
    const env = new MockActivityEnvironment();
    const beats: number[] = [];
    env.on('heartbeat', () => beats.push(Date.now()));
    const started = Date.now();
    const outcome = await run('run_shell_command', { command: 'sleep 1.5' }, env, 200);
    expect(outcome.ok).toBe(true);
    expect(beats.length).toBeGreaterThanOrEqual(4);
    expect(beats.every((t) => t - started < 2500)).toBe(true);
  });

  it('returns promptly with kind cancelled when the activity is cancelled', async () => {
    const env = new MockActivityEnvironment();
    const started = Date.now();
    const running = run('run_shell_command', { command: 'sleep 30' }, env);
    setTimeout(() => env.cancel(), 300);
    const outcome = await running;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(outcome).toMatchObject({ ok: false, errorKind: 'cancelled' });
  });
});
