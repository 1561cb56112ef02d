import type { ActivityFunctionWithOptions } from '@temporalio/workflow';

/** The argument that says most about a call, by the names our tools use, in this order. */
const MAIN_ARGUMENTS = ['command', 'file_path', 'dir_path', 'path', 'pattern', 'query', 'url', 'prompt', 'agent_name'];
const MAX_SUMMARY = 120;

/**
 * An activity whose every call carries a one-line summary that the Temporal Web UI shows on the
 * activity (its user metadata): the model of a model call, the tool and its main argument of a tool call.
 * The summary is metadata of the command, not part of what replay compares.
 */
export function summarized<I, O>(
  fn: ActivityFunctionWithOptions<(input: I) => Promise<O>>,
  summary: (input: I) => string,
): (input: I) => Promise<Awaited<O>> {
  return (input) => fn.executeWithOptions({ summary: oneLine(summary(input)) }, [input]);
}

/** `run_shell_command: npm test`, `read_file: src/a.ts`, or the tool's name alone. */
export function toolSummary(input: { name: string; args?: unknown }): string {
  const args = (input.args ?? {}) as Record<string, unknown>;
  const key = MAIN_ARGUMENTS.find((k) => typeof args[k] === 'string' && args[k] !== '');
  return key ? `${input.name}: ${String(args[key])}` : input.name;
}

/** The first non-empty line, trimmed and cut to a length a list column can show. */
export function oneLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const trimmed = line.trim();
  return trimmed.length > MAX_SUMMARY ? `${trimmed.slice(0, MAX_SUMMARY - 1)}…` : trimmed;
}

/**
 * What `durable-agent list` shows of a prompt without asking its workflow: the memo it was started
 * with (prompts started before it carry none). Also what the Web UI shows in its list: the summary.
 */
export interface ListingMemo {
  summary: string;
  workspace: string;
  host?: string;
}

export function promptMemo(input: { prompt: string; workspace: string; host?: string }): ListingMemo {
  return { summary: oneLine(input.prompt), workspace: input.workspace, ...(input.host ? { host: input.host } : {}) };
}

/** A session's line in the Web UI and in `list`: where it works, as its prompts change. */
export function sessionSummary(workspace: string): string {
  return oneLine(`session in ${workspace}`);
}
