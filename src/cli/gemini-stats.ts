import type { StatusReport } from '../client';
import type { AgentEvent } from '../core/events';
import type { TokenUsage } from '../core/types';
import { costJson, costOfStats } from './cost-text';

type Decision = 'accept' | 'reject' | 'modify' | 'auto_accept';
type Decisions = Record<Decision, number>;
interface ToolStats {
  count: number;
  success: number;
  fail: number;
  durationMs: number;
  decisions: Decisions;
}

interface Call {
  name: string;
  args: unknown;
  start: number;
  asked: boolean;
}

const noDecisions = (): Decisions => ({ accept: 0, reject: 0, modify: 0, auto_accept: 0 });

/**
 * `stats` of `-o json` and of the stream-json `result`, in Gemini CLI's shape (`models.<name>.api`
 * and `.tokens`, `tools`, `files`), built from the prompt's events beside the workflow's own counts,
 * which stay under `usage` and `toolCalls`, with what the tokens cost in USD (`models.<name>.cost.usd` and `cost`:
 * null where a model has no price). Times are the events' workflow times.
 */
export function geminiStatsCollector() {
  const api: Record<string, { totalRequests: number; totalErrors: number; totalLatencyMs: number }> = {};
  const calls = new Map<string, Call>();
  const byName: Record<string, ToolStats> = {};
  const files = { totalLinesAdded: 0, totalLinesRemoved: 0 };
  let model = '';
  let since: number | undefined;
  const apiOf = (name: string) => (api[name] ??= { totalRequests: 0, totalErrors: 0, totalLatencyMs: 0 });
  return {
    event(e: AgentEvent): void {
      const at = Date.parse(e.time);
      if (e.type === 'model_info') model = e.model;
      if (e.type === 'user_prompt' || e.type === 'tool_call_response') since = at;
      if (e.type === 'finished') {
        const entry = apiOf(model);
        entry.totalRequests += 1;
        entry.totalLatencyMs += since === undefined ? 0 : Math.max(0, at - since);
      }
      if (e.type === 'error' && model) apiOf(model).totalErrors += 1;
      if (e.type === 'tool_call_request') {
        calls.set(e.callId, { name: e.name, args: e.args, start: at, asked: false });
      }
      if (e.type === 'tool_call_awaiting_approval') {
        const call = calls.get(e.callId);
        if (call) call.asked = true;
      }
      if (e.type !== 'tool_call_response') return;
      const call = calls.get(e.callId);
      countCall(byName, call, e, at);
      if (e.ok && call) addLines(files, e.name, e.args ?? call.args);
    },
    stats(report: StatusReport) {
      return geminiStats(report, api, byName, files);
    },
  };
}

function countCall(
  byName: Record<string, ToolStats>,
  call: Call | undefined,
  e: Extract<AgentEvent, { type: 'tool_call_response' }>,
  at: number,
): void {
  const tool = (byName[e.name] ??= { count: 0, success: 0, fail: 0, durationMs: 0, decisions: noDecisions() });
  tool.count += 1;
  tool[e.ok ? 'success' : 'fail'] += 1;
  tool.durationMs += call ? Math.max(0, at - call.start) : 0;
  const refused = e.errorKind === 'cancelled' || e.errorKind === 'policy_violation';
  if (call?.asked) tool.decisions[refused ? 'reject' : e.modified ? 'modify' : 'accept'] += 1;
  else if (e.errorKind !== 'policy_violation') tool.decisions.auto_accept += 1;
}

function geminiStats(
  report: StatusReport,
  api: Record<string, { totalRequests: number; totalErrors: number; totalLatencyMs: number }>,
  byName: Record<string, ToolStats>,
  files: { totalLinesAdded: number; totalLinesRemoved: number },
) {
  const ours = report.stats;
  const cost = costOfStats(ours);
  const names = new Set([...Object.keys(ours?.models ?? {}), ...Object.keys(api).filter(Boolean)]);
  const models = Object.fromEntries(
    [...names].map((name) => [
      name,
      {
        api: api[name] ?? { totalRequests: 0, totalErrors: 0, totalLatencyMs: 0 },
        tokens: tokensOf(ours?.models[name]),
        ...(cost ? { cost: { usd: cost.unpriced.includes(name) ? null : (cost.models[name] ?? 0) } } : {}),
      },
    ]),
  );
  const tools = Object.values(byName);
  const sum = (pick: (t: ToolStats) => number) => tools.reduce((n, t) => n + pick(t), 0);
  const totalDecisions = noDecisions();
  for (const t of tools) for (const d of Object.keys(totalDecisions) as Decision[]) totalDecisions[d] += t.decisions[d];
  return {
    models,
    tools: {
      totalCalls: sum((t) => t.count),
      totalSuccess: sum((t) => t.success),
      totalFail: sum((t) => t.fail),
      totalDurationMs: sum((t) => t.durationMs),
      totalDecisions,
      byName,
    },
    files,
    ...(ours ? { usage: ours.usage, toolCalls: ours.toolCalls } : {}),
    ...(cost ? { cost: costJson(cost) } : {}),
  };
}

function tokensOf(usage: TokenUsage | undefined) {
  const u = usage ?? { input: 0, output: 0, cached: 0, thoughts: 0, total: 0 };
  return { prompt: u.input, candidates: u.output, total: u.total, cached: u.cached, thoughts: u.thoughts, tool: 0 };
}

/**
 * Lines an edit adds and removes, as the model asked (Gemini CLI counts the applied diff):
 * `replace` compares old_string with new_string line by line; `write_file` counts its content as added.
 */
function addLines(files: { totalLinesAdded: number; totalLinesRemoved: number }, name: string, args: unknown): void {
  const a = (args ?? {}) as Record<string, unknown>;
  const lines = (v: unknown) => (typeof v === 'string' && v !== '' ? v.replace(/\n$/, '').split('\n') : []);
  if (name === 'write_file') files.totalLinesAdded += lines(a.content).length;
  if (name !== 'replace') return;
  const before = lines(a.old_string);
  const after = lines(a.new_string);
  const kept = commonLines(before, after);
  files.totalLinesAdded += after.length - kept;
  files.totalLinesRemoved += before.length - kept;
}

/** Length of the longest common subsequence of two line lists (small: edits are snippets). */
function commonLines(a: string[], b: string[]): number {
  if (a.length * b.length > 1_000_000) return 0;
  let row = new Array<number>(b.length + 1).fill(0);
  for (const line of a) {
    const next = [0];
    for (let j = 0; j < b.length; j++) next.push(line === b[j] ? row[j] + 1 : Math.max(row[j + 1], next[j]));
    row = next;
  }
  return row[b.length];
}
