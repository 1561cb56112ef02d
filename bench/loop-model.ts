import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { functionCallResponse, textResponse } from '../src/fake-gemini';

/**
 * A scripted Gemini model for many prompts at once. The fake Gemini server (src/fake-gemini) serves
 * one script in order, which cannot tell 200 concurrent prompts apart; this one answers from the
 * request itself: a prompt made by `loopPrompt(tag, N)` gets `read_file` calls on f1.txt, f2.txt, ...
 * until its conversation holds N-1 function responses, then a text answer. Answers go out at once,
 * over the same SSE wire format, through the real `@google/genai` SDK of the worker.
 */
export interface LoopRequest {
  tag: string;
  responses: number;
  time: number;
}

export class LoopModel {
  readonly requests: LoopRequest[] = [];
  /** Requests of prompts whose tag is held get no answer until `release()` (or close). */
  readonly held = new Set<string>();
  private readonly waiting: http.ServerResponse[] = [];
  private baseUrl = '';
  private readonly server = http.createServer((req, res) => void this.handle(req, res).catch(() => res.destroy()));

  static async start(): Promise<LoopModel> {
    const model = new LoopModel();
    await new Promise<void>((resolve) => model.server.listen(0, '127.0.0.1', resolve));
    model.baseUrl = `http://127.0.0.1:${(model.server.address() as AddressInfo).port}`;
    return model;
  }

  get url(): string {
    return this.baseUrl;
  }

  requestsOf(tag: string): LoopRequest[] {
    return this.requests.filter((r) => r.tag === tag);
  }

  async close(): Promise<void> {
    for (const res of this.waiting.splice(0)) res.destroy();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { contents?: Content[] };
    const contents = body.contents ?? [];
    const marker = PROMPT_MARKER.exec(allText(contents));
    const tag = marker?.[1] ?? '';
    const turns = Number(marker?.[2] ?? 1);
    const responses = contents.flatMap((c) => c.parts ?? []).filter((p) => p.functionResponse).length;
    this.requests.push({ tag, responses, time: Date.now() });
    if (this.held.has(tag)) return void this.waiting.push(res);
    const line =
      responses < turns - 1
        ? functionCallResponse(toolCall(tag, responses + 1))
        : textResponse(`done after ${turns} turns`);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of line.method === 'generateContentStream' ? (line.response ?? []) : [])
      res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    res.end();
  }
}

interface Content {
  parts?: { text?: string; functionResponse?: unknown }[];
}

/**
 * Tags starting with "write" call write_file (which asks for approval in the default mode), "shell" a command that
 * marks its start in the workspace and then runs for 20 s, others read_file.
 */
function toolCall(tag: string, n: number) {
  if (tag.startsWith('shell'))
    return { name: 'run_shell_command', args: { command: `touch ${shellStartedFile(n)} && sleep 20` } };
  if (tag.startsWith('write'))
    return { name: 'write_file', args: { file_path: `out${n}.txt`, content: `output ${n}\n` } };
  return { name: 'read_file', args: { file_path: `f${n}.txt` } };
}

/** The file a "shell" prompt's n-th command creates as it starts. */
export function shellStartedFile(n: number): string {
  return `shell-started-${n}`;
}

/** The prompt text `loopPrompt` writes; the conversation may hold other text before it. */
const PROMPT_MARKER = /bench-prompt #(\S+) (\d+) turns/;

export function loopPrompt(tag: string, turns: number): string {
  return `bench-prompt #${tag} ${turns} turns: read the files one by one.`;
}

function allText(contents: Content[]): string {
  return contents
    .flatMap((c) => c.parts ?? [])
    .map((p) => p.text ?? '')
    .join('\n');
}
