import { z } from 'zod';
import { previewMarkers } from '../core/blob-marker';
import { globTool } from './glob';
import { grepSearchTool } from './grep-search';
import { listDirectoryTool } from './list-directory';
import { readFileTool } from './read-file';
import { replaceTool } from './replace';
import { runShellCommandTool } from './run-shell-command';
import type { FunctionDeclaration, ToolDefinition } from './types';
import { writeFileTool } from './write-file';
import { enterPlanModeTool, exitPlanModeTool } from './plan-mode';
import { readToolOutputTool } from './read-tool-output';
import { completeTaskTool } from './complete-task';
import { invokeAgentTool } from './invoke-agent';
import { writeTodosTool } from './write-todos';
import { updateTopicTool } from './update-topic';
import { activateSkillTool } from './activate-skill';
import { saveMemoryTool } from './save-memory';
import { askUserTool } from './ask-user';
import { webFetchTool } from './web-fetch';
import { googleWebSearchTool } from './google-web-search';
import { listBackgroundProcessesTool, readBackgroundOutputTool } from './background-processes';

export type { FunctionDeclaration } from './types';

/** The tools offered to the model, under Gemini CLI's names and parameters. */
export const TOOLS = [
  readFileTool,
  writeFileTool,
  replaceTool,
  listDirectoryTool,
  globTool,
  grepSearchTool,
  runShellCommandTool,
  enterPlanModeTool,
  exitPlanModeTool,
  readToolOutputTool,
  invokeAgentTool,
  completeTaskTool,
  writeTodosTool,
  updateTopicTool,
  activateSkillTool,
  saveMemoryTool,
  askUserTool,
  webFetchTool,
  googleWebSearchTool,
  listBackgroundProcessesTool,
  readBackgroundOutputTool,
] as const;

export const toolNames: readonly string[] = TOOLS.map((tool) => tool.name);

/** The names of the registered tools whose facts pass `test`, in registry order. */
export function toolsWhere(test: (tool: ToolDefinition) => boolean): string[] {
  return TOOLS.filter((tool: ToolDefinition) => test(tool)).map((tool) => tool.name);
}

/** Names older Gemini CLI versions used, so recorded sessions still resolve. */
const LEGACY_NAMES: Readonly<Record<string, string>> = { search_file_content: 'grep_search' };

export function findTool(name: string): ToolDefinition | undefined {
  const current = LEGACY_NAMES[name] ?? name;
  return TOOLS.find((tool) => tool.name === current);
}

/**
 * The declaration sent to the model, built from the tool's zod schema (input side). Objects never
 * forbid extra properties: Gemini CLI adds arguments such as `wait_for_previous` to every call.
 */
export function toFunctionDeclaration(tool: ToolDefinition): FunctionDeclaration {
  let schema = declaredSchemas.get(tool);
  if (!schema) {
    schema = cleanSchema(z.toJSONSchema(tool.parameters, { io: 'input' }) as Record<string, unknown>);
    delete schema.$schema;
    declaredSchemas.set(tool, schema);
  }
  return {
    name: tool.name,
    description: tool.description,
    parametersJsonSchema: JSON.parse(JSON.stringify(schema)) as Record<string, unknown>,
  };
}

/**
 * Each tool's JSON schema, converted once: every model request declares its tools, and zod's
 * conversion was ~1.7 ms of a turn's CPU. Callers get a copy, so none can change another's.
 */
const declaredSchemas = new WeakMap<ToolDefinition, Record<string, unknown>>();

function cleanSchema(node: Record<string, unknown>): Record<string, unknown> {
  const cleaned: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    if ((key === 'maximum' || key === 'minimum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    cleaned[key] = cleanValue(value);
  }
  return cleaned;
}

function cleanValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cleanValue);
  if (value !== null && typeof value === 'object') return cleanSchema(value as Record<string, unknown>);
  return value;
}

export type ParseToolArgsResult =
  | { ok: true; tool: ToolDefinition; args: Record<string, unknown> }
  | { ok: false; error: { kind: 'tool_not_registered' | 'invalid_tool_params'; message: string } };

/**
 * Phase one of a tool call: find the tool and check the model's arguments against its schema.
 * Pure, so the workflow can run it. A blob marker (`{ $blob, size, preview }`, a large string kept
 * out of history) is checked as the string `preview`: the tool schemas constrain strings only by
 * type and non-emptiness, which a preview shares with its text, and a call holding markers is parsed
 * again on its full text before it is judged (activities/judge-call) and run. On success `args` is the caller's object,
 * unchanged, markers kept. Tools rely on no zod transform or default, so once the markers are
 * swapped back for their text the same object can be passed to `execute`.
 */
export function parseToolArgs(name: string, args: unknown): ParseToolArgsResult {
  const tool = findTool(name);
  if (!tool) return { ok: false, error: { kind: 'tool_not_registered', message: unknownToolMessage(name) } };
  const input = args ?? {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    const message =
      `Invalid arguments for ${tool.name}: expected a JSON object of named parameters. ` + `${parameterSummary(tool)}`;
    return { ok: false, error: { kind: 'invalid_tool_params', message } };
  }
  const parsed = tool.parameters.safeParse(previewMarkers(input));
  if (!parsed.success) {
    const message =
      `Invalid arguments for ` +
      `${tool.name}: ${describeIssues(parsed.error.issues, input)}. ${parameterSummary(tool)}`;
    return { ok: false, error: { kind: 'invalid_tool_params', message } };
  }
  return { ok: true, tool, args: input as Record<string, unknown> };
}

function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string {
  return issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      if (path === '') return issue.message;
      if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
        return `missing required parameter "${path}" (${issue.expected})`;
      }
      return `parameter "${path}": ${issue.message}`;
    })
    .join('; ');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function parameterSummary(tool: ToolDefinition): string {
  const schema = toFunctionDeclaration(tool).parametersJsonSchema;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const names = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const listed = names.map((name) => (required.has(name) ? `${name} (required)` : name));
  return `${tool.name} takes: ${listed.join(', ')}.`;
}

function unknownToolMessage(name: string): string {
  const suggestion = closestName(name);
  const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
  return `Tool "${name}" not found.${hint} Available tools: ${toolNames.join(', ')}.`;
}

function closestName(name: string): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of toolNames) {
    const distance = editDistance(name.toLowerCase(), candidate);
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  if (!best) return undefined;
  const close = best.distance <= Math.max(2, Math.floor(best.name.length / 3));
  const contained = name.length >= 3 && toolNames.find((candidate) => candidate.includes(name.toLowerCase()));
  return close ? best.name : contained || undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length];
}
