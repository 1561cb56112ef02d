import type { StatusReport } from '../client';
import type { AgentEvent } from '../core/events';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Renders a prompt's events and outcome in one of Gemini CLI's headless formats. */
export interface Printer {
  event(event: AgentEvent): void;
  finish(report: StatusReport): void;
}

export function createPrinter(format: OutputFormat, io: Io, sessionId: string, model?: string): Printer {
  if (format === 'json') return jsonPrinter(io, sessionId);
  if (format === 'stream-json') return streamJsonPrinter(io, sessionId, model);
  return textPrinter(io, sessionId);
}

function textPrinter({ stdout, stderr }: Io, sessionId: string): Printer {
  let endsWithNewline = true;
  return {
    event(e) {
      if (e.type === 'content') {
        stdout.write(e.text);
        endsWithNewline = e.text.endsWith('\n');
      } else if (e.type === 'tool_call_request') {
        stderr.write(`→ ${e.name} ${shorten(JSON.stringify(e.args), 120)}\n`);
      } else if (e.type === 'tool_call_response') {
        stderr.write(`${e.ok ? '✓' : '✗'} ${e.name}: ${shorten(e.preview.split('\n')[0] ?? '', 120)}\n`);
      } else if (e.type === 'loop_detected') {
        stderr.write(e.final ? `[LOOP] ${e.detail}: the prompt is paused; answer with \`durable-agent loop ${sessionId} continue|disable|stop\`\n` : `[LOOP] ${e.detail}: asking the model to change course\n`);
      } else if (e.type === 'chat_compressed') {
        stderr.write(`[compression] ${e.status}: ${e.originalTokens} → ${e.newTokens} tokens\n`);
      } else if (e.type === 'budget_exhausted') {
        stderr.write(`[BUDGET] ${e.used} of ${e.budget} tokens used: paused; answer with \`durable-agent budget ${sessionId} --add N\` or \`--stop\`\n`);
      } else if (e.type === 'approval_mode') {
        stderr.write(`[approval mode: ${e.mode}]\n`);
      } else if (e.type === 'warning') {
        stderr.write(`[WARNING] ${e.message}\n`);
      } else if (e.type === 'error') {
        stderr.write(`[ERROR] ${e.errorType}: ${e.message}\n`);
      }
    },
    finish(report) {
      if (!endsWithNewline) stdout.write('\n');
      if (report.status === 'cancelled') stderr.write('Cancelled.\n');
    },
  };
}

function jsonPrinter({ stdout }: Io, sessionId: string): Printer {
  return {
    event() {},
    finish(report) {
      const out = { session_id: sessionId, response: report.response ?? '', stats: report.stats ?? null, ...(report.error ? { error: report.error } : {}) };
      stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    },
  };
}

function streamJsonPrinter({ stdout }: Io, sessionId: string, model?: string): Printer {
  const line = (obj: Record<string, unknown>, time?: string) => stdout.write(`${JSON.stringify({ timestamp: time ?? new Date().toISOString(), ...obj })}\n`);
  return {
    event(e) {
      switch (e.type) {
        case 'user_prompt':
          // Gemini CLI opens with `init`, from which consumers read the session id.
          line({ type: 'init', session_id: sessionId, ...(model ? { model } : {}) }, e.time);
          return void line({ type: 'message', role: 'user', content: e.text }, e.time);
        case 'content':
          return void line({ type: 'message', role: 'assistant', content: e.text, delta: true }, e.time);
        case 'tool_call_request':
          return void line({ type: 'tool_use', tool_name: e.name, tool_id: e.callId, parameters: e.args }, e.time);
        case 'tool_call_response':
          return void line(
            e.ok
              ? { type: 'tool_result', tool_id: e.callId, status: 'success', output: e.preview }
              : { type: 'tool_result', tool_id: e.callId, status: 'error', error: { type: e.errorKind, message: e.preview } },
            e.time,
          );
        case 'warning':
          return void line({ type: 'error', severity: 'warning', message: e.message }, e.time);
        case 'error':
          return void line({ type: 'error', severity: 'error', message: `${e.errorType}: ${e.message}` }, e.time);
      }
    },
    finish(report) {
      line({ type: 'result', status: report.status === 'completed' ? 'success' : 'error', ...(report.error ? { error: report.error } : {}), stats: report.stats ?? null });
    },
  };
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
