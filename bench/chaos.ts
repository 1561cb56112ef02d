import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../src/fake-gemini';
import { startDevServer, type DevServer } from '../src/server/dev-server';
import { statusQuery, confirmToolCallUpdate, type PromptInput, type PromptResult } from '../src/workflows/api';
import type { BenchEnv } from './env';
import { spawnBin, stopBin, type BinProcess } from './processes';

/**
 * `npm run bench -- --chaos`: 100 concurrent prompts with a shell command each, on two
 * hosts, while a driver SIGKILLs a random worker 10 times and restarts the Temporal server once.
 * Every prompt must end with its reference answer, every command must have run at most once (each
 * appends its prompt's id to one ledger), and every call that asked for approval must have been
 * answered. Any loss makes the run fail (exit 1). Workers are `durable-agent worker --host` processes.
 */
export interface ChaosResult {
  prompts: number;
  approvals: number;
  kills: number;
  serverRestarts: number;
  seconds: number;
  completed: number;
  wrongResults: number;
  repeatedSideEffects: number;
  missingSideEffects: number;
  lostApprovals: number;
  /** Commands that ran on another host than their prompt's. */
  wrongHost: number;
  /** Tool calls cut by a kill, reported to the model as of unknown outcome (not run again). */
  interruptedCalls: number;
}

const PROMPTS = 100;
const KILLS = 10;
const HOSTS = ['alpha', 'beta'] as const;
const ANSWER = 'Chaos prompt done.';

interface Rig {
  env: BenchEnv;
  dir: string;
  port: number;
  server: DevServer;
  client: Client;
  workers: Map<string, BinProcess>;
  workerEnv: Record<string, string>;
  stopping?: boolean;
}

export async function runChaos(env: BenchEnv): Promise<ChaosResult> {
  const dir = path.join(env.tmp, 'chaos');
  fs.mkdirSync(dir, { recursive: true });
  const ledger = path.join(dir, 'ledger.txt');
  fs.writeFileSync(ledger, '');
  // Every request with no model message yet gets the command, every later one the answer (by turn).
  const command = `echo "$(basename "$PWD") $WHO" >> ${ledger}; sleep 4`;
  const fake = await FakeGeminiServer.start({
    script: [functionCallResponse({ name: 'run_shell_command', args: { command } }), textResponse(ANSWER)],
    byTurn: true,
  });
  const server = await startDevServer({ cliPath: env.cliPath, dbFile: path.join(dir, 'dev.db'), headless: true });
  const port = Number(server.address.split(':').pop());
  const connection = await Connection.connect({ address: server.address });
  const rig: Rig = {
    env,
    dir,
    port,
    server,
    client: new Client({ connection, namespace: 'default' }),
    workers: new Map(),
    workerEnv: {
      TEMPORAL_ADDRESS: server.address,
      DURABLE_AGENT_TASK_QUEUE: 'chaos',
      GOOGLE_GEMINI_BASE_URL: fake.url,
      DURABLE_AGENT_HOME: path.join(dir, 'home'),
    },
  };
  try {
    for (const host of HOSTS) startWorker(rig, host);
    const result = await drive(rig, ledger);
    const told = fake.requests.filter((q) => JSON.stringify(q.body).includes('Outcome unknown')).length;
    return { ...result, interruptedCalls: told };
  } finally {
    rig.stopping = true;
    for (const worker of rig.workers.values()) await stopBin(worker, 'SIGKILL');
    await connection.close();
    await rig.server.stop();
    await fake.close();
  }
}

/**
 * A worker of `host`, restarted whenever it exits, as a service manager would (Restart=always): after
 * each SIGKILL, and when one started while the server restarts gives up connecting.
 */
function startWorker(rig: Rig, host: string): void {
  if (rig.stopping) return;
  // WHO names the worker's host in the ledger: a command must run on its prompt's host.
  const worker = spawnBin(rig.env.binPath, ['worker', '--host', host], { ...rig.workerEnv, WHO: host });
  rig.workers.set(host, worker);
  void worker.exited.then(() => setTimeout(() => startWorker(rig, host), 500));
}

async function drive(rig: Rig, ledger: string): Promise<ChaosResult> {
  const started = Date.now();
  let chaos: Promise<number> = Promise.resolve(0);
  // Started 10 at a time over ~30 s, so tool calls are running whenever a kill lands.
  const ids: string[] = [];
  for (let batch = 0; batch < PROMPTS / 10; batch++) {
    const numbers = Array.from({ length: 10 }, (_, k) => batch * 10 + k);
    ids.push(...(await Promise.all(numbers.map((i) => startPrompt(rig, i)))));
    if (batch === 0) void (chaos = chaosLoop(rig));
    await new Promise((r) => setTimeout(r, 3000));
  }
  const needsApproval = new Set(ids.filter((_, i) => i % 5 === 0));
  const approved = new Set<string>();
  const done = { value: false };
  const approver = approveLoop(rig, needsApproval, approved, done);
  const results = await Promise.all(ids.map((id) => waitResult(rig, id)));
  done.value = true;
  const kills = await chaos;
  await approver;
  const lines = fs.readFileSync(ledger, 'utf8').split('\n').filter(Boolean);
  const counts = new Map<string, number>();
  const hostOf = new Map(lines.map((line) => line.split(' ') as [string, string]));
  for (const line of lines) counts.set(line.split(' ')[0], (counts.get(line.split(' ')[0]) ?? 0) + 1);
  const names = ids.map((id) => id.replace(/^chaos-/, 'ws-'));
  const wrongHost = names.filter((n, i) => hostOf.has(n) && hostOf.get(n) !== HOSTS[i % HOSTS.length]).length;
  return {
    prompts: PROMPTS,
    approvals: needsApproval.size,
    kills,
    serverRestarts: 1,
    seconds: Math.round((Date.now() - started) / 1000),
    completed: results.filter((r) => r !== undefined).length,
    wrongResults: results.filter((r) => r?.response !== ANSWER).length,
    repeatedSideEffects: names.filter((n) => (counts.get(n) ?? 0) > 1).length,
    missingSideEffects: names.filter((n) => !counts.has(n)).length,
    lostApprovals: [...needsApproval].filter((id) => !approved.has(id)).length,
    wrongHost,
    interruptedCalls: 0,
  };
}

async function startPrompt(rig: Rig, i: number): Promise<string> {
  const workflowId = `chaos-${i}`;
  const workspace = path.join(rig.dir, `ws-${i}`);
  fs.mkdirSync(workspace, { recursive: true });
  const input: PromptInput = {
    prompt: `chaos prompt ${i}`,
    workspace: fs.realpathSync(workspace),
    model: 'gemini-test',
    approvalMode: i % 5 === 0 ? 'default' : 'yolo',
    maxTurns: 5,
    toolHeartbeatTimeoutMs: 3000,
    modelHeartbeatTimeoutMs: 5000,
    modelRetryInitialMs: 200,
    host: HOSTS[i % HOSTS.length],
  };
  await rig.client.workflow.start('agentPromptWorkflow', { taskQueue: 'chaos', workflowId, args: [input] });
  return workflowId;
}

/** The result, asked again across the server restart (a client call fails while it is down). */
async function waitResult(rig: Rig, id: string): Promise<PromptResult | undefined> {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      return (await rig.client.workflow.getHandle(id).result()) as PromptResult;
    } catch (err) {
      if ((err as Error).name === 'WorkflowFailedError') return undefined;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  return undefined;
}

/** Approves each pending call of the prompts that ask, as a person at `approve` would. */
async function approveLoop(rig: Rig, asking: Set<string>, approved: Set<string>, done: { value: boolean }) {
  while (!done.value) {
    for (const id of asking) {
      if (approved.has(id)) continue;
      try {
        const handle = rig.client.workflow.getHandle(id);
        const status = await handle.query(statusQuery);
        for (const call of status.pendingApprovals) {
          await handle.executeUpdate(confirmToolCallUpdate, {
            args: [{ callId: call.callId, outcome: 'proceed_once' }],
          });
          approved.add(id);
        }
      } catch {
        // Server restarting or worker gone: asked again on the next round.
      }
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** 10 SIGKILLs of a random worker (restarted at once) and, half-way, one server restart on its port and db. */
async function chaosLoop(rig: Rig): Promise<number> {
  let kills = 0;
  for (let i = 0; i < KILLS; i++) {
    const host = HOSTS[Math.floor(Math.random() * HOSTS.length)];
    // A kill of a worker still starting up would test nothing: wait until it serves, then a little.
    await until(() => rig.workers.get(host)!.output().includes('Ctrl-C stops'));
    await new Promise((r) => setTimeout(r, 1000 + Math.random() * 2000));
    const victim = rig.workers.get(host)!;
    await stopBin(victim, 'SIGKILL');
    await until(() => rig.workers.get(host) !== victim);
    kills += 1;
    if (i === KILLS / 2) {
      rig.env.log('chaos: restarting the Temporal server');
      await rig.server.stop();
      rig.server = await startDevServer({
        cliPath: rig.env.cliPath,
        dbFile: path.join(rig.dir, 'dev.db'),
        port: rig.port,
        headless: true,
      });
    }
  }
  return kills;
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 100));
}

/** True when nothing was lost. */
export function chaosPassed(r: ChaosResult): boolean {
  return (
    r.completed === r.prompts &&
    r.wrongResults === 0 &&
    r.repeatedSideEffects === 0 &&
    r.lostApprovals === 0 &&
    r.wrongHost === 0
  );
}
