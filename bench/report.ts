import type { MachineInfo } from './env';
import type { PerTurnResult } from './per-turn';
import type { HistoryBytesResult, HistoryShape } from './history';
import type { StartLatencyResult } from './start-latency';
import type { ConcurrencyResult } from './concurrency';
import type { ResumeSample } from './resume';
import type { VariantResult } from './variants';
import type { SideBySideResult } from './side-by-side';
import { coldTable, sideBySideTable } from './side-by-side-report';
import type { ColdResult } from './cold';
import { checkpointsTable, type CheckpointsResult } from './checkpoints';
import { fmt, median, range } from './stats';

export interface BenchResults {
  machine: MachineInfo;
  quick: boolean;
  startedAt: string;
  perTurn?: PerTurnResult;
  perTurnShape?: HistoryShape;
  history?: HistoryBytesResult[];
  start?: StartLatencyResult;
  concurrency?: ConcurrencyResult;
  resumeApproval?: ResumeSample[];
  resumeInFlight?: ResumeSample[];
  resumeToolCall?: ResumeSample[];
  variants?: VariantResult[];
  sideBySide?: SideBySideResult;
  cold?: ColdResult;
  checkpoints?: CheckpointsResult;
}

type Row = [measure: string, value: string, goal: string, met: string];

const GOALS = { perTurnMs: 30, coldMs: 3000, warmMs: 300, historyBytes: 2048, resumeMs: 2000, rssMiB: 1024 };

const mark = (ok: boolean | undefined) => (ok === undefined ? '' : ok ? 'yes' : '**no**');
const ms = (values: number[]) => `${fmt(median(values), 0)} ms (${range(values.map((v) => Math.round(v)))})`;

function perTurnRows(r: BenchResults): Row[] {
  const p = r.perTurn;
  if (!p) return [];
  const rows: Row[] = [
    [
      `Per-turn cost, Temporal (1 model turn + 1 read_file; 1- vs ${p.longTurns}-turn prompt)`,
      `**${fmt(p.temporal.perTurnMs)} ms**`,
      `≤ ${GOALS.perTurnMs} ms (Gemini CLI)`,
      mark(p.temporal.perTurnMs <= GOALS.perTurnMs),
    ],
    ['  1-turn prompt, start to result', ms(p.temporal.oneTurnMs), '', ''],
    [`  ${p.longTurns}-turn prompt, start to result`, ms(p.temporal.longMs), '', ''],
  ];
  if (p.floor.longMs.length > 0) {
    rows.push(['Per-turn floor, same activities in-process, no Temporal', `${fmt(p.floor.perTurnMs)} ms`, '', '']);
    rows.push(["  Temporal's share of a turn", `${fmt(p.temporal.perTurnMs - p.floor.perTurnMs)} ms`, '', '']);
  }
  const s = r.perTurnShape;
  if (s)
    rows.push([
      '  per turn in history: events / workflow tasks / activity tasks',
      `${fmt(s.events / p.longTurns, 1)} / ${fmt(s.workflowTasks / p.longTurns, 1)} / ${fmt((s.activityTasks + s.localActivityMarkers) / p.longTurns, 1)}`,
      '',
      '',
    ]);
  return rows;
}

function startRows(r: BenchResults): Row[] {
  const s = r.start;
  if (!s) return [];
  return [
    [
      'Start to first model request, warm (server + `durable-agent worker` running)',
      ms(s.warmMs),
      `< ${GOALS.warmMs} ms`,
      mark(median(s.warmMs) < GOALS.warmMs),
    ],
    ['  warm server, no worker running (`run` starts one)', ms(s.warmNoWorkerMs), '', ''],
    [
      'Start to first model request, cold (`run` starts the embedded server)',
      ms(s.coldMs),
      `< ${GOALS.coldMs} ms`,
      mark(median(s.coldMs) < GOALS.coldMs),
    ],
    ['  `durable-agent --help` (Node start + loading the CLI)', ms(s.processOnlyMs), '', ''],
    ['  warm: process start → workflow started → model activity started → request', phases(s.phases.warm), '', ''],
    ['  warm, no worker: same phases', phases(s.phases.warmNoWorker), '', ''],
  ];
}

function phases(p: StartLatencyResult['phases']['warm']): string {
  return `${fmt(p.toWorkflowStartMs, 0)} + ${fmt(p.toActivityStartMs, 0)} + ${fmt(p.toRequestMs, 0)} ms`;
}

function historyRows(r: BenchResults): Row[] {
  return (r.history ?? []).map((h) => [
    `History bytes per turn, ${fmt(h.toolOutputBytes / 1024, 0)} KB tool outputs (${h.turns}-turn prompt: ` +
      `${h.totalBytes} B)`,
    `${fmt(h.perTurnBytes, 0)} B (${fmt(h.perTurnEvents, 1)} events)`,
    `< ${GOALS.historyBytes} B`,
    mark(h.perTurnBytes < GOALS.historyBytes),
  ]);
}

function concurrencyRows(r: BenchResults): Row[] {
  const c = r.concurrency;
  if (!c) return [];
  return [
    [
      `Concurrency: ${c.prompts} prompts × ${c.turnsEach} turns at once, one worker process`,
      `${fmt(c.seconds, 1)} s, ${fmt(c.turnsPerSecond, 0)} turns/s`,
      '',
      '',
    ],
    [
      '  failures',
      `${c.failures}${c.failureSamples.length ? ` (${c.failureSamples.join('; ')})` : ''}`,
      'none',
      mark(c.failures === 0),
    ],
    [
      '  worker peak RSS',
      c.workerPeakRssMiB === undefined ? 'n/a' : `${fmt(c.workerPeakRssMiB, 0)} MiB`,
      `≤ ${GOALS.rssMiB} MiB`,
      mark(c.workerPeakRssMiB === undefined ? undefined : c.workerPeakRssMiB <= GOALS.rssMiB),
    ],
    [
      '  CPU seconds: dev server / worker / client + fake model',
      `${fmt(c.cpuSeconds.server ?? NaN, 1)} / ${fmt(c.cpuSeconds.worker ?? NaN, 1)} / ${fmt(c.cpuSeconds.bench, 1)}`,
      '',
      '',
    ],
  ];
}

function resumeRows(r: BenchResults): Row[] {
  const rows: Row[] = [];
  const a = r.resumeApproval;
  if (a) {
    rows.push([
      'Resume: new worker start → next model request (killed while awaiting approval)',
      ms(a.map((s) => s.ms)),
      `< ${GOALS.resumeMs} ms`,
      mark(median(a.map((s) => s.ms)) < GOALS.resumeMs),
    ]);
    const ready = a.map((s) => s.workerReadyMs).filter((v): v is number => v !== undefined);
    if (ready.length > 0) rows.push(['  of which new worker process start → first poll', ms(ready), '', '']);
  }
  const cases: [ResumeSample[] | undefined, string][] = [
    [r.resumeInFlight, 'killed mid model call'],
    [r.resumeToolCall, 'killed mid tool call, the model told its outcome is unknown'],
  ];
  for (const [samples, what] of cases)
    if (samples)
      rows.push([
        `Resume: new worker start → next model request (${what})`,
        ms(samples.map((s) => s.ms)),
        `< ${GOALS.resumeMs} ms`,
        mark(median(samples.map((s) => s.ms)) < GOALS.resumeMs),
      ]);
  return rows;
}

function table(rows: Row[]): string {
  const lines = ['| Measure | Result | Goal | Met |', '|---|---|---|---|'];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

function variantTable(variants: VariantResult[]): string {
  const lines = [
    '| Variant | per-turn cost | 1-turn prompt | workflow tasks / turn | activity tasks / turn |',
    '|---|---|---|---|---|',
  ];
  for (const v of variants)
    lines.push(
      `| ${v.name} | ${fmt(v.perTurnMs)} ms | ${fmt(v.oneTurnMs, 0)} ms | ${fmt(v.workflowTasksPerTurn, 1)} | ${fmt(v.activityTasksPerTurn, 1)} |`,
    );
  return lines.join('\n');
}

export function renderReport(r: BenchResults, analysis: string): string {
  const m = r.machine;
  const rows = [...perTurnRows(r), ...startRows(r), ...historyRows(r), ...concurrencyRows(r), ...resumeRows(r)];
  const parts = [
    '# Benchmarks',
    '',
    `Written by \`npm run ` +
      `bench\`${r.quick ? ' (quick mode: fewer and shorter runs)' : ''} on ${r.startedAt.slice(0, 10)}. Each figure is the median of several runs (range in brackets); compare figures of the same run rather than absolute times.`,
    '',
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB memory, ${m.platform}; Node ${m.node}; Temporal CLI ` +
      (`${m.temporalCli}. The model is a scripted fake Gemini server on loopback answering at once, reached ` +
        `through the real \`@google/genai\` SDK.`),
    '',
    ...(r.sideBySide
      ? [
          `## Side by side with Gemini CLI ${r.sideBySide.geminiCliVersion}`,
          '',
          'Same run, same fake Gemini server over HTTP, same workspace; runs of the two alternate.',
          '',
          sideBySideTable(r.sideBySide),
          '',
        ]
      : []),
    ...(r.cold ? ['## Cold run beside Gemini CLI', '', 'Runs of the two alternate.', '', coldTable(r.cold), ''] : []),
    ...(r.sideBySide || r.cold ? ['## durable-agent alone', ''] : []),
    table(rows),
  ];
  if (r.variants)
    parts.push(
      '',
      '## Per-turn cost under server and worker variants',
      '',
      `\`npm run bench -- --variants\`: each on a fresh dev server, per-turn cost as above.`,
      '',
      variantTable(r.variants),
    );
  if (r.checkpoints) parts.push('', checkpointsTable(r.checkpoints));
  if (analysis.trim()) parts.push('', analysis.trim());
  return `${parts.join('\n')}\n`;
}
