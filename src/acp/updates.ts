/**
 * What an editor is shown of a prompt: each item `AgentClient.follow` yields, as ACP
 * `session/update`s. One translation for a prompt followed live and for one replayed by
 * `session/load`, so both read the same. No I/O: the view below carries what a translation needs
 * from earlier items (text already shown, the calls seen).
 */
import * as path from 'node:path';
import type { PlanEntry, SessionUpdate, ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import { oneLine, toolSummary, type FollowItem } from '../client';
import type { AgentEvent } from '../core/events';
import { LiveTextTracker, type LiveOutput } from '../core/live-text';
import { findTool } from '../tools';
import type { Todo } from '../tools/write-todos';
import { pauseText } from '../runtime/pause-text';
import { newUsageTally, usageUpdates, type UsageTally } from './usage';

/** What the translation remembers between items of one prompt; start each prompt with `newUpdateView`. */
export interface UpdateView {
  /** Where relative paths in the calls' arguments point (the session's workspace). */
  workspace: string;
  /** Replay (`session/load`) shows the user's messages too; a live prompt's editor typed them itself. */
  replay: boolean;
  live: LiveTextTracker;
  /** Turns whose thoughts streamed live: their recorded `thought` event is not shown again. */
  thoughtTurns: Set<number>;
  /** The session's usage so far (shared by its prompts' views), for `usage_update`. */
  usage: UsageTally;
  /** The prompt followed: a pause names it in the command that answers it. */
  promptId: string;
}

export function newUpdateView(
  workspace: string,
  replay = false,
  more: { usage?: UsageTally; promptId?: string } = {},
): UpdateView {
  const usage = more.usage ?? newUsageTally(false);
  return {
    workspace,
    replay,
    live: new LiveTextTracker(),
    thoughtTurns: new Set(),
    usage,
    promptId: more.promptId ?? 'ID',
  };
}

/** The updates one followed item makes (often none). */
export function acpUpdates(view: UpdateView, item: FollowItem): SessionUpdate[] {
  if (item.kind === 'piece') {
    if (item.piece.kind === 'thought') view.thoughtTurns.add(item.piece.turn);
    return view.live.piece(item.piece).map(chunkOf);
  }
  return [...eventUpdates(view, item.event), ...usageUpdates(view.usage, item.event)];
}

function eventUpdates(view: UpdateView, event: AgentEvent): SessionUpdate[] {
  switch (event.type) {
    case 'user_prompt':
    case 'user_steering':
      return view.replay ? [{ sessionUpdate: 'user_message_chunk', content: text(event.text) }] : [];
    case 'content':
      return view.live.final('text', event.turn, event.text).map(chunkOf);
    case 'thought':
      if (view.thoughtTurns.has(event.turn)) return [];
      return [thoughtChunk(event.subject ? `**${event.subject}** ${event.description}` : event.description)];
    case 'tool_call_request':
      return [toolCall(view.workspace, event.callId, event.name, event.args)];
    case 'tool_call_response':
      return [callEnded(event)];
    case 'todos':
      return [{ sessionUpdate: 'plan', entries: event.todos.map(planEntry) }];
    case 'approval_mode':
      return [{ sessionUpdate: 'current_mode_update', currentModeId: event.mode }];
    case 'budget_exhausted':
    case 'cost_limit_reached':
      return [{ sessionUpdate: 'agent_message_chunk', content: text(`\n${pauseText(event, view.promptId)}\n`) }];
    default:
      return notice(event);
  }
}

/** Endings and troubles a person must see, as text in the answer (editors show no other channel reliably). */
function notice(event: AgentEvent): SessionUpdate[] {
  const line = (s: string) => [{ sessionUpdate: 'agent_message_chunk' as const, content: text(`\n[${s}]\n`) }];
  switch (event.type) {
    case 'error':
      return line(`${event.errorType}: ${event.message}`);
    case 'warning':
      return line(`warning: ${event.message}`);
    case 'max_turns':
      return line(`stopped: the prompt reached its limit of ${event.maxTurns} turns`);
    case 'max_session_turns':
      return line(`stopped: the session reached its limit of ${event.maxSessionTurns} turns`);
    case 'loop_detected':
      return line(`loop detected (${event.kind}): ${event.detail}`);
    case 'agent_execution_stopped':
    case 'agent_execution_blocked':
      return line(`a hook stopped the agent: ${event.reason}`);
    default:
      return [];
  }
}

function chunkOf(output: LiveOutput): SessionUpdate {
  if (output.kind === 'thought') return thoughtChunk(output.text);
  return { sessionUpdate: 'agent_message_chunk', content: text(output.text) };
}

const thoughtChunk = (s: string): SessionUpdate => ({ sessionUpdate: 'agent_thought_chunk', content: text(s) });
const text = (s: string) => ({ type: 'text' as const, text: s });

/** The `tool_call` that announces a call: what it is, where it acts, and for an edit the change as a diff. */
export function toolCall(workspace: string, callId: string, name: string, args: unknown): SessionUpdate {
  const fields = record(args);
  const file = pathArg(workspace, fields);
  const content = diffOf(name, fields, file);
  return {
    sessionUpdate: 'tool_call',
    toolCallId: callId,
    // The summary the Web UI shows on the call's activity, so both name a call alike.
    title: oneLine(toolSummary({ name, args: fields })),
    kind: acpKind(name),
    status: 'pending',
    rawInput: args,
    ...(file && { locations: [{ path: file } satisfies ToolCallLocation] }),
    ...(content && { content: [content] }),
  };
}

function callEnded(event: Extract<AgentEvent, { type: 'tool_call_response' }>): SessionUpdate {
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId: event.callId,
    status: event.ok ? 'completed' : 'failed',
    ...(event.preview && { content: [{ type: 'content', content: text(event.preview) }] }),
    ...(event.args && { rawInput: event.args }),
  };
}

/** Our tool kinds (Gemini CLI's) as ACP's: the ones ACP lacks are `other`; MCP tools are `other` too. */
export function acpKind(name: string): ToolKind {
  const kind = findTool(name)?.kind;
  switch (kind) {
    case 'read':
    case 'edit':
    case 'delete':
    case 'move':
    case 'search':
    case 'execute':
    case 'think':
    case 'fetch':
    case 'switch_mode':
      return kind;
    default:
      return 'other';
  }
}

function pathArg(workspace: string, args: Record<string, unknown>): string | undefined {
  const given = args.file_path ?? args.dir_path;
  return typeof given === 'string' && given ? path.resolve(workspace, given) : undefined;
}

/** An edit as ACP's diff; arguments too large to travel whole (a store marker, not text) get none. */
function diffOf(name: string, args: Record<string, unknown>, file: string | undefined): ToolCallContent | undefined {
  if (!file) return undefined;
  if (name === 'replace' && typeof args.old_string === 'string' && typeof args.new_string === 'string')
    return { type: 'diff', path: file, oldText: args.old_string, newText: args.new_string };
  if (name === 'write_file' && typeof args.content === 'string')
    return { type: 'diff', path: file, oldText: null, newText: args.content };
  return undefined;
}

/** ACP's plan has three states: a cancelled task counts as done, a blocked one as still to do. */
function planEntry(todo: Todo): PlanEntry {
  const status =
    todo.status === 'cancelled' ? 'completed' : todo.status === 'blocked' ? 'pending' : (todo.status ?? 'pending');
  return { content: todo.description, priority: 'medium', status };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
