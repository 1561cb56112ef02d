import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { Client } from '@temporalio/client';

export const BIN = path.resolve(__dirname, '..', '..', 'bin', 'durable-agent.js');

/** Starts `durable-agent worker [args]` as its own process, output kept for failure messages. */
export function spawnWorker(env: Record<string, string>, args: string[] = []): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, [BIN, 'worker', ...args], {
    // No spare process: these workers serve prompts started through the SDK, and are killed and restarted.
    env: { ...withoutKeys(process.env), DURABLE_AGENT_LOG_LEVEL: 'warn', DURABLE_AGENT_SPARE: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  return Object.assign(child, { output: () => output });
}

/** Resolves once the process has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function withoutKeys(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && k !== 'GEMINI_API_KEY') out[k] = v;
  return out;
}

/** Polls `check` until it holds; on timeout fails with the worker's output, which says why. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out; worker output:\n${output()}`);
}

/** Polls a terminal screen (tmux capture) until `pattern` shows; on timeout fails with the screen. */
export async function waitForScreen(read: () => Promise<string>, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let screen = '';
  while (Date.now() < deadline) {
    screen = await read();
    if (pattern.test(screen)) return screen;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${pattern} on the screen:\n${screen}`);
}

/** Waits (60 s at most) until a worker polls `queue` for activity tasks; `output` names what the workers said. */
export async function polled(client: Client, queue: string, output: () => string): Promise<void> {
  await waitFor(
    async () => {
      const r = await client.workflowService.describeTaskQueue({
        namespace: 'default',
        taskQueue: { name: queue, kind: 1 },
        taskQueueType: 2,
      });
      return (r.pollers ?? []).length > 0;
    },
    60_000,
    output,
  );
}
