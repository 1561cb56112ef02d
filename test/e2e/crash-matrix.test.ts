import * as fs from 'node:fs';
import * as path from 'node:path';
import { findFreePort, startDevServer, type DevServer } from '../../src/server/dev-server';
import { EXPECTED_WORKSPACE } from '../helpers/crash-script';
import { compareRuns, type ResumedCall } from '../helpers/crash-compare';
import { analyseKills, type KillReport } from '../helpers/crash-report';
import { connectClient, killWorker, runCrashSession, type Crash, type SessionOutcome } from '../helpers/crash-run';
import { prepareCrashSession, releaseCrashSession, type PreparedSession } from '../helpers/crash-setup';
import { killPlan } from '../helpers/crash-plan';
import { spawnWorker } from '../helpers/processes';
import { closeTestEnv, getTestEnv, type TestEnv } from '../helpers/temporal-env';

/**
 * The crash matrix (docs/reliability.md): the scripted 20-turn session is run once without
 * interruption, then again with its worker process SIGKILLed at random moments, the last one after
 * the replacement worker took the session over (drawn from a printed seed; `CRASH_SEED=n` replays
 * one trial; test/helpers/crash-plan.ts), and with the dev server SIGKILLed and restarted
 * on its SQLite file. Every run must end with the reference's workspace and transcript, with no
 * side effect repeated. `CRASH_MATRIX_OUT=file.json` keeps the figures.
 */

const TRIALS = Number(process.env.CRASH_TRIALS ?? 10);
const SERVER_TRIALS = Number(process.env.CRASH_SERVER_TRIALS ?? 3);
const PARALLEL = 2;
const replay = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : undefined;
const baseSeed = replay ?? Math.floor(Math.random() * 1_000_000);

interface TrialReport {
  kind: 'worker' | 'server';
  seed: number;
  fractions: number[];
  kills: KillReport[];
  durationMs: number;
  modelRequests: number;
  resumed: ResumedCall[];
  result: string;
  failures: string[];
}

const reports: TrialReport[] = [];
let env: TestEnv;
let reference: SessionOutcome;
let referenceMs = 0;

beforeAll(async () => {
  env = await getTestEnv();
  reference = await runCrashSession({
    client: env.client,
    address: env.address,
    dir: trialDir('reference'),
    label: 'ref',
    crashes: [],
  });
  referenceMs = reference.closedAt - reference.sentAt;
  process.stderr.write(
    `crash matrix: reference run ` +
      `${referenceMs} ms, ${reference.transcript.length} messages, ${reference.modelRequests} model requests\n`,
  );
}, 120_000);

afterAll(async () => {
  const out = process.env.CRASH_MATRIX_OUT;
  const summary = { baseSeed, referenceMs, referenceMessages: reference?.transcript.length, trials: reports };
  if (out) fs.writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
  await closeTestEnv();
});

test('the uninterrupted run ends with the expected workspace and 20 model turns', () => {
  expect(reference.workspace).toEqual(EXPECTED_WORKSPACE);
  expect(reference.modelRequests).toBe(20);
  expect(reference.unexpectedModelCalls).toEqual([]);
});

test(
  `every worker-kill trial ends like the uninterrupted run (${replay === undefined ? TRIALS : 1} trials, base ` +
    `seed ${baseSeed})`,
  async () => {
    const seeds = replay !== undefined ? [replay] : Array.from({ length: TRIALS }, (_, i) => baseSeed + i);
    const queue = [...seeds];
    // Each lane prepares its next trial (worker process included) while the current one runs.
    const prepare = (seed: number | undefined) => {
      if (seed === undefined) return undefined;
      const prepared = prepareCrashSession(env.address, trialDir(`w${seed}`), `w${seed}`);
      prepared.catch(() => undefined); // awaited in the lane's next round; a failure is reported there
      return { seed, prepared };
    };
    const lane = async () => {
      for (let next = prepare(queue.shift()); next; ) {
        const current = next;
        next = prepare(queue.shift());
        try {
          reports.push(await workerTrial(current.seed, await current.prepared));
        } catch (err) {
          if (next) await releaseCrashSession(await next.prepared);
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, lane));
    const failed = reports.filter((r) => r.kind === 'worker' && r.failures.length > 0);
    expect(failed.map((r) => `seed ${r.seed}: ${r.failures.join('; ')}`)).toEqual([]);
  },
  600_000,
);

test(`every dev-server kill and restart ends like the uninterrupted run (${SERVER_TRIALS} trials)`, async () => {
  for (let i = 0; i < SERVER_TRIALS; i++) reports.push(await serverTrial(baseSeed + 1000 + i));
  const failed = reports.filter((r) => r.kind === 'server' && r.failures.length > 0);
  expect(failed.map((r) => `seed ${r.seed}: ${r.failures.join('; ')}`)).toEqual([]);
}, 300_000);

async function workerTrial(seed: number, prepared: PreparedSession): Promise<TrialReport> {
  const plan = killPlan(seed);
  const fractions = plan.map((k) => k.fraction);
  const crashes = plan.map((k) => ({
    ...killWorker(Math.round(k.fraction * referenceMs)),
    afterTakeover: k.afterTakeover,
  }));
  return finish(
    'worker',
    seed,
    fractions,
    env.client,
    await runCrashSession(
      { client: env.client, address: env.address, dir: trialDir(`w${seed}`), label: `w${seed}`, crashes },
      prepared,
    ),
  );
}

async function serverTrial(seed: number): Promise<TrialReport> {
  // Alone on the machine the run is faster than the reference: kill within its first 60 %.
  const fractions = [Math.round(killPlan(seed)[0].fraction * 600) / 1000];
  const dir = trialDir(`s${seed}`);
  const port = await findFreePort();
  const startServer = () =>
    startDevServer({ cliPath: env.cliPath, dbFile: path.join(dir, 'temporal.db'), port, headless: true });
  let server: DevServer = await startServer();
  const client = await connectClient(server.address);
  const crash: Crash = {
    delayMs: Math.round(fractions[0] * referenceMs),
    async run(ctx) {
      server.process.kill('SIGKILL');
      await server.stop(0);
      server = await startServer();
      await ctx.client.connection.close().catch(() => undefined);
      ctx.client = await connectClient(server.address);
      if (ctx.worker.exitCode !== null || ctx.worker.signalCode !== null) {
        ctx.worker = spawnWorker(ctx.workerEnv);
        ctx.workerPids.push(ctx.worker.pid ?? 0);
      }
    },
  };
  try {
    const outcome = await runCrashSession({
      client,
      address: server.address,
      dir,
      label: `s${seed}`,
      crashes: [crash],
    });
    const fresh = await connectClient(server.address);
    try {
      return await finish('server', seed, fractions, fresh, outcome);
    } finally {
      await fresh.connection.close();
    }
  } finally {
    await server.stop();
  }
}

async function finish(
  kind: TrialReport['kind'],
  seed: number,
  fractions: number[],
  client: typeof env.client,
  outcome: SessionOutcome,
): Promise<TrialReport> {
  const { failures, resumed } = compareRuns(reference, outcome);
  const kills = await analyseKills(client, outcome);
  const how = resumed
    .map((r) => `${r.name} ${r.kind}${r.ran === undefined ? '' : r.ran ? ' (had run)' : ' (had not run)'}`)
    .join(', ');
  const result = failures.length ? `FAILED (${how})` : resumed.length ? `same, ${how}` : 'exact';
  const report = {
    kind,
    seed,
    fractions,
    kills,
    durationMs: outcome.closedAt - outcome.sentAt,
    modelRequests: outcome.modelRequests,
    resumed,
    result,
    failures,
  };
  const recovered = (k: KillReport) =>
    k.recoveryMs === undefined ? 'killed again before it took over' : `recovered in ${k.recoveryMs} ms`;
  const where = kills
    .map((k) => `${k.atMs} ms: ${k.interrupted.join(' + ') || 'nothing in flight'}, ${recovered(k)}`)
    .join('; ');
  process.stderr.write(
    `crash matrix: ${kind} seed ${seed} (kill at ${fractions.join(', ')} of the run) → ` +
      `${result}; ${report.durationMs} ms; ${where || 'finished before the kill'}\n`,
  );
  return report;
}

function trialDir(name: string): string {
  const dir = path.join(env.tmpDir, 'crash-matrix', name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
