import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { functionCallResponse, textResponse, type FunctionCallSpec, type ScriptLine } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { meanAround, measureHistory, type HistorySize } from '../helpers/history-size';

/**
 * A long prompt, each turn calling one tool whose output is ~100 KB (then ~1 KB), runs to the end on
 * the shared dev server, and its workflow history stays small per turn: the conversation lives in the
 * transcript store, activities carry references, and the prompt continues as new at its run cap (or
 * when Temporal suggests it). The cap is lowered to RUN_EVENTS through the prompt's `maxRunEvents`, so
 * that 300 turns (about 2,220 events) make three runs, as 640 turns do at the default 2,000: one run
 * both starts from a carry and ends by continuing as new. Each run's start weighs about 80 KB (input
 * and carry); over 300 turns that is under a quarter of the bound on bytes per turn. Prints the
 * figures that docs/reliability.md reports (measured there with LONG_PROMPT_TURNS=1000
 * LONG_PROMPT_RUN_EVENTS=2000).
 */
const TURNS = Number(process.env.LONG_PROMPT_TURNS ?? 300);
const RUN_EVENTS = Number(process.env.LONG_PROMPT_RUN_EVENTS ?? 1000);
const FILES = 20;
/** Bytes of history per model turn that no run may exceed, whatever the tool outputs weigh. */
const MAX_BYTES_PER_TURN = 4096;
/** Temporal's own suggestion to continue as new comes at 4 MiB; no run gets near its 50 MB limit. */
const MAX_RUN_BYTES = 4 * 1024 * 1024;
/** A run continues as new at the first step boundary past its cap; no turn is this many events. */
const MAX_EVENTS_PAST_CAP = 30;
/** Runs a prompt of `TURNS` turns must take (about 7 events a turn): the cap, not the turn count, ends them. */
const MIN_RUNS = Math.max(2, Math.ceil((TURNS * 7) / RUN_EVENTS));

// One harness (worker, fake Gemini server, store) per output size: the two prompts run at the same
// time, since each mostly waits on the dev server's round trips.
let big: Harness;
let small: Harness;
beforeAll(async () => {
  [big, small] = await Promise.all([createHarness('long-big'), createHarness('long-small')]);
});
afterAll(async () => {
  await Promise.all([big?.close(), small?.close()]);
  await closeTestEnv();
});

/** `count` files of `size` bytes in lines of 80, each file's lines its own, so no two outputs match. */
function files(size: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let f = 0; f < FILES; f++) {
    const lines: string[] = [];
    for (let n = 0; lines.length * 80 < size; n++)
      lines.push(`file ${f} line ${n} `.padEnd(79, String.fromCharCode(97 + ((f + n) % 26))));
    out[`f${String(f).padStart(2, '0')}.txt`] = `${lines.join('\n')}\n`;
  }
  return out;
}

/** Turn i's call: mostly whole-file reads, every fifth a grep over one file, every 50th a shell `cat`. */
function callOf(i: number): FunctionCallSpec {
  const file = `f${String(i % FILES).padStart(2, '0')}.txt`;
  if (i % 50 === 49) return { name: 'run_shell_command', args: { command: `cat ${file}` } };
  if (i % 5 === 4) return { name: 'grep_search', args: { pattern: 'line', include_pattern: file } };
  return { name: 'read_file', args: { file_path: file } };
}

function script(): ScriptLine[] {
  return [
    ...Array.from({ length: TURNS }, (_, i) => functionCallResponse(callOf(i))),
    textResponse(`Done after ${TURNS} tool calls.`),
  ];
}

async function runLong(h: Harness, label: string, outputBytes: number): Promise<HistorySize> {
  const started = Date.now();
  // The fake keeps every request body; late ones hold the whole (masked) conversation, so only the last few are kept.
  const trim = setInterval(() => h.fake.requests.splice(0, Math.max(0, h.fake.requests.length - 2)), 500);
  try {
    // Loop detection is off: the script cycles through 20 files, which is a repetition by design,
    // and the LLM loop check would ask the fake model questions the script does not answer.
    const handle = (await h.start(script(), {
      workspace: h.workspace(files(outputBytes)),
      maxTurns: TURNS + 5,
      loopDetection: false,
      maxRunEvents: RUN_EVENTS,
    })) as WorkflowHandleWithFirstExecutionRunId;
    const run = await h.finish(handle);
    expect(run.error).toBeUndefined();
    expect(run.result).toMatchObject({
      terminateReason: 'completed',
      turns: TURNS + 1,
      response: `Done after ${TURNS} tool calls.`,
    });
    expect(h.fake.leftovers()).toHaveLength(0);
    const measuredSize = await measureHistory(h.env.client, handle.workflowId, handle.firstExecutionRunId);
    report(label, measuredSize, Date.now() - started);
    return measuredSize;
  } finally {
    clearInterval(trim);
  }
}

function report(label: string, s: HistorySize, ms: number): void {
  const model = s.activityMs('callModel');
  const tool = s.activityMs('runTool');
  const at = (n: number) => `${meanAround(model, n)}/${meanAround(tool, n)}`;
  const marks = [...[10, 100, 500].filter((n) => n < TURNS), TURNS];
  const lines = [
    `long prompt, ${label} tool outputs: ${TURNS} tool turns in ${(ms / 1000).toFixed(1)} s`,
    `  runs ${s.runs}, events ${s.events}, history ${s.bytes} bytes, ${Math.round(s.bytes / TURNS)} bytes per turn`,
    `  largest run ${s.largestRun.bytes} bytes, ${s.largestRun.events} events`,
    `  top event types: ${s.byType
      .slice(0, 5)
      .map((t) => `${t.type} ${t.bytes} B (${t.count})`)
      .join(', ')}`,
    `  callModel/runTool ms (mean of 10) at turn ${marks.map((n) => `${n}: ${at(n)}`).join(', ')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

test(
  `a ${TURNS}-turn prompt completes with the same bounded history per turn for ~100 KB and ~1 KB tool ` + `outputs`,
  async () => {
    const [large, tiny] = await Promise.all([runLong(big, '100 KB', 100_000), runLong(small, '1 KB', 1_000)]);
    for (const size of [large, tiny]) {
      expect(size.runs).toBeGreaterThanOrEqual(MIN_RUNS);
      expect(size.bytes / TURNS).toBeLessThan(MAX_BYTES_PER_TURN);
      expect(size.largestRun.bytes).toBeLessThan(MAX_RUN_BYTES);
      expect(size.largestRun.events).toBeLessThan(RUN_EVENTS + MAX_EVENTS_PAST_CAP);
    }
    // "The same": outputs 100 times larger may add only what their references and previews weigh
    // (a blob reference and a preview of at most 300 characters per call), never the output itself.
    expect(large.bytes).toBeLessThan(1.25 * tiny.bytes);
  },
  900_000,
);
