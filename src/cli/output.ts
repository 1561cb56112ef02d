import type { StatusReport } from '../client';
import { costLimitLine } from './cost-limit';
import { pauseText } from '../runtime/pause-text';
import type { Todo } from '../tools/write-todos';
import type { AgentEvent } from '../core/events';
import { awaitingApprovalLine } from './approval-hint';
import { compressionMessage } from '../core/compression-message';
import { finalAnswerTracker } from './final-answer';
import { geminiStatsCollector } from './gemini-stats';
import { LiveTextTracker, type LiveOutput, type StreamPiece } from '../core/live-text';
import { selfCommand } from '../runtime/self-command';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Renders a prompt's events and outcome in one of Gemini CLI's headless formats. */
export interface Printer {
  event(event: AgentEvent): void;
  /** Model output as it streams; a turn's `content` event then adds only what was not shown. */
  piece(piece: StreamPiece): void;
  finish(report: StatusReport): void;
}

export function createPrinter(format: OutputFormat, io: Io, sessionId: string, model?: string): Printer {
  if (format === 'json') return jsonPrinter(io, sessionId);
  if (format === 'stream-json') return streamJsonPrinter(io, sessionId, model);
  return textPrinter(io, sessionId);
}

function textPrinter({ stdout, stderr }: Io, sessionId: string): Printer {
  const screen = liveScreen({ stdout, stderr });
  return {
    piece: (p) => screen.piece(p),
    event(e) {
      if (e.type === 'content') return screen.final('text', e.turn, e.text);
      if (e.type === 'thought') return screen.final('thought', e.turn, '');
      const line = statusLine(e, sessionId);
      if (line === undefined) return;
      screen.endThought();
      stderr.write(`${line}\n`);
    },
    finish(report) {
      screen.endThought();
      if (!screen.endsWithNewline()) stdout.write('\n');
      if (report.status === 'cancelled') stderr.write('Cancelled.\n');
      if (report.status === 'terminated') stderr.write(`Terminated: ${report.error?.message ?? 'no reason known'}\n`);
    },
  };
}

/**
 * The answer on stdout and thoughts on stderr, each shown once as it streams (LiveTextTracker).
 * Thoughts stay on a line of their own, closed before anything else is printed.
 */
function liveScreen({ stdout, stderr }: Io) {
  const live = new LiveTextTracker();
  let endsWithNewline = true;
  let thinking = false;
  const endThought = () => {
    if (thinking) stderr.write('\n');
    thinking = false;
  };
  const show = (out: LiveOutput) => {
    if (out.kind === 'thought') {
      stderr.write(thinking && !out.restart ? out.text : `${thinking ? '\n' : ''}[thinking] ${out.text}`);
      return void (thinking = true);
    }
    endThought();
    if (out.restart) {
      if (!endsWithNewline) stdout.write('\n');
      stderr.write('[the answer was retried; it restarts here]\n');
    }
    stdout.write(out.text);
    endsWithNewline = out.text.endsWith('\n');
  };
  return {
    piece: (p: StreamPiece) => live.piece(p).forEach(show),
    final: (kind: LiveOutput['kind'], turn: number, text: string) => live.final(kind, turn, text).forEach(show),
    endThought,
    endsWithNewline: () => endsWithNewline,
  };
}

/** The stderr line of an event in text output, if it has one. */
function statusLine(e: AgentEvent, sessionId: string): string | undefined {
  switch (e.type) {
    case 'tool_call_request':
      return `→ ${e.name} ${shorten(JSON.stringify(e.args), 120)}`;
    case 'tool_call_response':
      return `${e.ok ? '✓' : '✗'} ${e.name}: ${shorten(e.preview.split('\n')[0] ?? '', 120)}`;
    case 'loop_detected':
      return e.final
        ? `[LOOP] ${e.detail}: the prompt is paused; answer with \`${selfCommand()} loop ` +
            `${sessionId} continue|disable|stop\``
        : `[LOOP] ${e.detail}: asking the model to change course`;
    case 'chat_compressed':
      return `[compression] ${compressionMessage(e.status, e.originalTokens, e.newTokens)}`;
    case 'budget_exhausted':
    case 'cost_limit_reached':
      return pauseText(e, sessionId);
    case 'approval_mode':
      return `[approval mode: ${e.mode}]`;
    case 'todos':
      return todosLine(e.todos);
    case 'topic':
      return e.opened ? `[topic] ${e.title}: ${e.intent}` : `[intent] ${e.intent}`;
    case 'referenced_files':
      return `[files] ${shorten(e.files.join(', '), 120)} added to the prompt`;
    case 'memory_loaded':
      return `[context] ${e.files.join(', ')} (${e.chars} characters)`;
    case 'warning':
      return `[WARNING] ${e.message}`;
    case 'error':
      return `[ERROR] ${e.errorType}: ${e.message}`;
    case 'hook':
      return e.systemMessage ? `[hook ${e.event}] ${e.systemMessage}` : undefined;
    case 'agent_execution_stopped':
    case 'agent_execution_blocked':
      return (
        `[${e.type === 'agent_execution_stopped' ? 'stopped' : 'blocked'} by a hook] ` +
        `${e.systemMessage ?? e.reason}`
      );
    default:
      return undefined;
  }
}

/** One stderr line for the whole list: how far along it is, and what is being worked on. */
function todosLine(todos: readonly Todo[]): string {
  if (todos.length === 0) return '[todos] cleared';
  const done = todos.filter((t) => t.status === 'completed').length;
  const working = todos.find((t) => t.status === 'in_progress');
  return `[todos] ${done}/${todos.length} completed${working ? `; working on: ${working.description}` : ''}`;
}

function jsonPrinter({ stdout }: Io, sessionId: string): Printer {
  const stats = geminiStatsCollector();
  const answer = finalAnswerTracker();
  return {
    event(e) {
      stats.event(e);
      answer.event(e);
    },
    piece() {},
    finish(report) {
      const out = {
        session_id: sessionId,
        response: answer.answer(report.response),
        stats: stats.stats(report),
        ...(report.error ? { error: report.error } : {}),
      };
      stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    },
  };
}

function streamJsonPrinter({ stdout }: Io, sessionId: string, model?: string): Printer {
  const line = (obj: Record<string, unknown>, time?: string) =>
    stdout.write(`${JSON.stringify({ timestamp: time ?? new Date().toISOString(), ...obj })}\n`);
  const live = new LiveTextTracker();
  const show = (out: LiveOutput, time?: string) => line(deltaLine(out), time);
  const stats = geminiStatsCollector();
  return {
    piece: (p) => live.piece(p).forEach((out) => show(out)),
    event(e) {
      stats.event(e);
      switch (e.type) {
        case 'user_prompt':
          // Gemini CLI opens with `init`, from which consumers read the session id.
          line({ type: 'init', session_id: sessionId, ...(model ? { model } : {}) }, e.time);
          return void line({ type: 'message', role: 'user', content: e.text }, e.time);
        case 'content':
          return void live.final('text', e.turn, e.text).forEach((out) => show(out, e.time));
        case 'thought':
          return void live.final('thought', e.turn, '');
        case 'tool_call_request':
          return void line({ type: 'tool_use', tool_name: e.name, tool_id: e.callId, parameters: e.args }, e.time);
        case 'tool_call_response':
          return void line(toolResultLine(e), e.time);
        case 'tool_call_awaiting_approval':
          return void line(awaitingApprovalLine(e, sessionId), e.time);
        case 'cost_limit_reached':
          return void line(costLimitLine(e, sessionId), e.time);
        case 'warning':
          return void line({ type: 'error', severity: 'warning', message: e.message }, e.time);
        case 'error':
          return void line({ type: 'error', severity: 'error', message: `${e.errorType}: ${e.message}` }, e.time);
      }
      const own = ownLine(e);
      if (own) line(own, e.time);
    },
    finish(report) {
      line({
        type: 'result',
        status: report.status === 'completed' ? 'success' : 'error',
        ...(report.error ? { error: report.error } : {}),
        stats: stats.stats(report),
      });
    },
  };
}

/** Deltas concatenate to the turn's text; `replace` says a retry's text starts over. */
function deltaLine(out: LiveOutput): Record<string, unknown> {
  return {
    ...(out.kind === 'text' ? { type: 'message', role: 'assistant' } : { type: 'thought' }),
    content: out.text,
    delta: true,
    ...(out.restart ? { replace: true } : {}),
  };
}

function toolResultLine(e: Extract<AgentEvent, { type: 'tool_call_response' }>): Record<string, unknown> {
  const result = { type: 'tool_result', tool_id: e.callId, ...(e.args ? { executed_parameters: e.args } : {}) };
  if (e.ok) return { ...result, status: 'success', output: e.preview };
  return { ...result, status: 'error', error: { type: e.errorKind, message: e.preview } };
}

/**
 * Lines of ours, which Gemini CLI's stream-json does not have: the todo list, the questions an
 * `ask_user` call waits on (its answer comes as the call's tool_result), the chapters of the work
 * (`update_topic`), so a long run reads as chapters, and each turn's workspace checkpoint.
 */
function ownLine(e: AgentEvent): Record<string, unknown> | undefined {
  if (e.type === 'todos') return { type: 'todos', todos: e.todos };
  if (e.type === 'question_asked') return { type: 'question', tool_id: e.callId, questions: e.questions };
  if (e.type === 'checkpoint') return { type: 'checkpoint', turn: e.turn, checkpoint: e.checkpoint };
  if (e.type !== 'topic') return undefined;
  const chapter = e.opened ? { title: e.title, ...(e.summary ? { summary: e.summary } : {}) } : {};
  return { type: 'topic', ...chapter, strategic_intent: e.intent };
}

/** `text` cut to `max` characters, an ellipsis marking the cut. */
export function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
