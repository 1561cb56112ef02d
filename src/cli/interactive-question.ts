import * as readline from 'node:readline';
import { answerQuestion, type Client } from '../client';
import type { AgentEvent } from '../core/events';
import type { QuestionAnswerPayload } from '../core/questions';

export interface QuestionHandlerOptions {
  client: Client;
  workflowId: string;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

export interface QuestionHandler {
  onEvent(event: AgentEvent): void;
  close(): Promise<void>;
}

/**
 * `run` and `chat` on a terminal: a question the prompt waits on (already printed with the commands
 * that answer it) is also asked in place, one answer line per question, and the answers are sent as
 * `answer` sends them. An answer that arrives another way first (a signal, `durable-agent answer`)
 * closes the prompt here; an empty line keeps waiting for the other ways.
 */
export function createQuestionHandler(options: QuestionHandlerOptions): QuestionHandler {
  let queue = Promise.resolve();
  let open: { callId: string; rl: readline.Interface } | undefined;
  let closed = false;
  const answered = new Set<string>();
  const ask = async (callId: string, count: number) => {
    if (closed || answered.has(callId)) return;
    const rl = readline.createInterface({ input: options.input, output: options.output });
    open = { callId, rl };
    try {
      const answers: string[] = [];
      for (let i = 0; i < count; i++) {
        const line = await question(
          rl,
          `Answer ${i}${count > 1 ? ` of 0-${count - 1}` : ''} (Enter alone: answer later): `,
        );
        if (line === undefined || line.trim() === '') return;
        answers.push(line.trim());
      }
      const payload: QuestionAnswerPayload = { callId, answers };
      options.output.write(`${await answerQuestion(options.client, options.workflowId, payload)}\n`);
    } catch (err) {
      options.output.write(`Not recorded: ${(err as Error).message}\n`);
    } finally {
      open = undefined;
      rl.close();
    }
  };
  return {
    onEvent(event) {
      if (event.type === 'question_asked') {
        const count = Array.isArray(event.questions) ? event.questions.length : 0;
        if (count > 0) queue = queue.then(() => ask(event.callId, count));
      }
      if (event.type !== 'tool_call_response') return;
      answered.add(event.callId);
      if (open?.callId === event.callId) open.rl.close();
    },
    close() {
      closed = true;
      open?.rl.close();
      return queue;
    },
  };
}

/** The line typed, or undefined when the interface closed first (answered elsewhere, input ended). */
function question(rl: readline.Interface, query: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    rl.once('close', () => resolve(undefined));
    rl.once('SIGINT', () => process.kill(process.pid, 'SIGINT'));
    rl.question(query, (line) => resolve(line));
  });
}
