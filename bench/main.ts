/**
 * `npm run bench`: the benchmark suite. Starts its own dev server(s), runs each
 * measurement, prints the table and writes it to docs/benchmarks.md (quick mode only prints,
 * unless --out is given). Options: --quick, --only=side-by-side,cold,per-turn,history,start,concurrency,resume,
 * checkpoints,
 * --variants (per-turn cost under server and worker variants), --out=FILE; --chaos runs the chaos run alone.
 * An --only run of sections with headings of their own (checkpoints, cold, side-by-side) replaces just those
 * sections of an existing report.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { machineInfo, openBenchEnv, openBenchServer, type BenchEnv } from './env';
import { measurePerTurn } from './per-turn';
import { historyShape, measureHistoryBytes } from './history';
import { measureStartLatency } from './start-latency';
import { measureConcurrency } from './concurrency';
import { measureResume } from './resume';
import { openRig } from './rig';
import { renderReport, type BenchResults } from './report';
import { measureVariants } from './variants';
import { measureSideBySide } from './side-by-side';
import { measureCold } from './cold';
import { chaosPassed, runChaos } from './chaos';
import { measureCheckpoints } from './checkpoints';
import { mergedHeadings, mergeSections } from './merge-sections';

const SECTIONS = [
  'side-by-side',
  'cold',
  'per-turn',
  'history',
  'start',
  'concurrency',
  'resume',
  'checkpoints',
] as const;
type Section = (typeof SECTIONS)[number];

interface Args {
  quick: boolean;
  only: Set<Section>;
  variants: boolean;
  out?: string;
  chaos: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { quick: false, only: new Set(SECTIONS), variants: false, chaos: false };
  for (const arg of argv) {
    const [key, value] = arg.split('=', 2);
    if (key === '--quick') args.quick = true;
    else if (key === '--variants') args.variants = true;
    else if (key === '--chaos') args.chaos = true;
    else if (key === '--out' && value) args.out = value;
    else if (key === '--only' && value) {
      const wanted = value.split(',');
      const unknown = wanted.filter((s) => !(SECTIONS as readonly string[]).includes(s));
      if (unknown.length > 0)
        throw new Error(`--only: unknown section(s) ${unknown.join(', ')}; known: ${SECTIONS.join(', ')}`);
      args.only = new Set(wanted as Section[]);
    } else
      throw new Error(
        `unknown argument ${arg}; use --quick, --only=${SECTIONS.join(',')}, --variants, --out=FILE, --chaos`,
      );
  }
  return args;
}

/** Counts per mode: the full run aims at under ten minutes on two cores. */
function sizes(quick: boolean) {
  return quick
    ? {
        perTurnRuns: 2,
        longTurns: 30,
        historyTurns: 5,
        startRuns: 2,
        prompts: 20,
        promptTurns: 10,
        resumeRuns: 1,
        inFlight: false,
        side: { longTurns: 10, runs: 2, bytesTurns: 30 },
        coldRuns: 2,
        checkpointFiles: 2000,
      }
    : {
        perTurnRuns: 5,
        longTurns: 100,
        historyTurns: 10,
        startRuns: 5,
        prompts: 1000,
        promptTurns: 10,
        resumeRuns: 3,
        inFlight: true,
        side: { longTurns: 50, runs: 3, bytesTurns: 100 },
        // A median of five pairs: one pair's spread on a shared machine is larger than the gap measured.
        coldRuns: 5,
        checkpointFiles: 10_000,
      };
}

async function runSections(env: BenchEnv, args: Args): Promise<BenchResults> {
  const n = sizes(args.quick);
  const results: BenchResults = {
    machine: await machineInfo(env),
    quick: args.quick,
    startedAt: new Date().toISOString(),
  };
  const server = await openBenchServer(env, 'main');
  const step = async (name: string, fn: () => Promise<void>) => {
    env.log(`${name}…`);
    const started = Date.now();
    await fn();
    env.log(`${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  try {
    if (args.only.has('side-by-side'))
      await step(
        'side by side with Gemini CLI',
        async () => void (results.sideBySide = await measureSideBySide(env, server, n.side)),
      );
    if (args.only.has('cold'))
      await step('cold run beside Gemini CLI', async () => void (results.cold = await measureCold(env, n.coldRuns)));
    if (args.only.has('per-turn')) {
      await step('per-turn cost', async () => {
        const rig = await openRig(env, server, 'per-turn', 1024);
        try {
          results.perTurn = await measurePerTurn(rig, n.longTurns, n.perTurnRuns);
          results.perTurnShape = await historyShape(server.client, results.perTurn.longWorkflowId);
        } finally {
          await rig.close();
        }
      });
    }
    if (args.only.has('history')) {
      await step('history bytes', async () => {
        results.history = [];
        for (const bytes of [1024, 100 * 1024]) {
          const rig = await openRig(env, server, `history-${bytes}`, bytes);
          try {
            results.history.push(await measureHistoryBytes(rig, server.client, bytes, n.historyTurns));
          } finally {
            await rig.close();
          }
        }
      });
    }
    if (args.only.has('start'))
      await step(
        'start latency',
        async () => void (results.start = await measureStartLatency(env, server, n.startRuns)),
      );
    if (args.only.has('resume')) {
      await step('resume latency', async () => {
        results.resumeApproval = await measureResume(env, server, 'awaiting_approval', n.resumeRuns);
        if (!n.inFlight) return;
        results.resumeInFlight = await measureResume(env, server, 'model_call_in_flight', 1);
        results.resumeToolCall = await measureResume(env, server, 'tool_call_in_flight', 1);
      });
    }
    if (args.only.has('concurrency'))
      await step(
        'concurrency',
        async () => void (results.concurrency = await measureConcurrency(env, server, n.prompts, n.promptTurns)),
      );
    if (args.only.has('checkpoints'))
      await step(
        'workspace checkpoints',
        async () => void (results.checkpoints = await measureCheckpoints(env, n.checkpointFiles, 7)),
      );
  } finally {
    await server.close();
  }
  if (args.variants)
    await step(
      'variants',
      async () => void (results.variants = await measureVariants(env, args.quick ? 30 : 100, args.quick ? 2 : 3)),
    );
  return results;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  // The in-process workers' state changes would bury the table.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const env = await openBenchEnv(args.quick);
  if (args.chaos) return chaosStep(env);
  try {
    const results = await runSections(env, args);
    const analysisFile = path.join(env.root, 'bench', 'analysis.md');
    const analysis = fs.existsSync(analysisFile) ? fs.readFileSync(analysisFile, 'utf8') : '';
    const report = renderReport(results, analysis);
    process.stdout.write(`${report}\n`);
    const out = args.out ?? (args.quick ? undefined : path.join(env.root, 'docs', 'benchmarks.md'));
    if (out) {
      const headings = args.variants ? undefined : mergedHeadings([...args.only], SECTIONS);
      const merged = headings && fs.existsSync(out) && mergeSections(fs.readFileSync(out, 'utf8'), report, headings);
      fs.writeFileSync(out, merged || report);
      env.log(`written to ${path.relative(process.cwd(), out) || out}`);
    }
  } finally {
    fs.rmSync(env.tmp, { recursive: true, force: true });
  }
}

/** `--chaos` alone: the chaos run, its figures on stdout; any loss fails the bench. */
async function chaosStep(env: BenchEnv): Promise<void> {
  try {
    const result = await runChaos(env);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (!chaosPassed(result)) throw new Error('the chaos run lost prompts, approvals or repeated a side effect');
  } finally {
    fs.rmSync(env.tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
