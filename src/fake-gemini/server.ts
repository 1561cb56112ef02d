import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { lineForTurn, linesFromTurn } from './by-turn';
import { loadScriptFile, type ScriptLine } from './script';

/** What the fake received; the API key (header or `?key=`) is deliberately not kept. */
export interface RecordedRequest {
  /** Script method (`generateContentStream`, ...) or `HTTP-METHOD /path` for unknown routes. */
  method: string;
  model: string;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  time: Date;
  /** Stream chunks written before the answer ended or the client closed the connection. */
  chunksSent?: number;
  /** Size of the request body in bytes, as it came over the wire. */
  bytes: number;
  /** The last `usageMetadata` the answer carried (of the chunks sent, for a stream): what the provider billed. */
  usage?: Record<string, number>;
}

/** A request no script line answered; `message` is also the 400 error message sent back. */
export interface UnexpectedCall {
  method: string;
  model: string;
  message: string;
  time: Date;
}

export interface FakeGeminiOptions {
  script: ScriptLine[] | { path: string };
  /** Strict (default): lines in order, method must match. Otherwise: first line with the method. */
  strict?: boolean;
  /**
   * Serve stream requests by turn (see by-turn.ts): stream line n answers every request whose
   * conversation holds n model messages, and is not used up. Other methods are served non-strictly.
   */
  byTurn?: boolean;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /**
   * Report `usageMetadata.promptTokenCount` as the request's size / 4 (Gemini CLI's own estimate)
   * instead of the script's figure, so token-driven behaviour (compression, masking) acts as it
   * would with a real model. Used by the benchmark's side-by-side run.
   */
  usageFromRequest?: boolean;
  /**
   * Strict mode, serving a scripted prompt again (after its worker died): the first stream request
   * skips to the stream line of the model turn its conversation has reached (by-turn.ts).
   */
  resume?: boolean;
}

const ROUTE = /\/models\/([^/]+):(streamGenerateContent|generateContent|countTokens)$/;
const METHOD_OF_ACTION: Record<string, ScriptLine['method']> = {
  streamGenerateContent: 'generateContentStream',
  generateContent: 'generateContent',
  countTokens: 'countTokens',
};

/**
 * Serves a script of model responses over the real Gemini REST API, so the `@google/genai` SDK
 * (with `httpOptions.baseUrl = server.url`) and anything built on it run unmodified. Unmatched
 * calls get HTTP 400, which callers treat as non-retryable, so a wrong script fails fast.
 */
export class FakeGeminiServer {
  readonly requests: RecordedRequest[] = [];
  readonly unexpected: UnexpectedCall[] = [];
  private baseUrl = '';
  private loaded: ScriptLine[] = [];
  private remaining: ScriptLine[] = [];
  private resumeAtTurn = false;
  private readonly closing = new AbortController();
  private readonly http = http.createServer((req, res) => {
    this.handle(req, res).catch(() => res.destroy());
  });

  private constructor(
    lines: ScriptLine[],
    private readonly strict: boolean,
    private readonly byTurn: boolean,
    private readonly usageFromRequest: boolean,
  ) {
    this.load(lines);
  }

  static async start(options: FakeGeminiOptions): Promise<FakeGeminiServer> {
    const { script } = options;
    const lines = Array.isArray(script) ? script : await loadScriptFile(script.path);
    const server = new FakeGeminiServer(
      lines,
      options.strict ?? true,
      options.byTurn ?? false,
      options.usageFromRequest ?? false,
    );
    server.resumeAtTurn = !!options.resume;
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.http.once('error', reject).listen(options.port ?? 0, host, resolve);
    });
    const { address, port } = server.http.address() as AddressInfo;
    server.baseUrl = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
    return server;
  }

  /** Base URL for the SDK's `httpOptions.baseUrl`, e.g. `http://127.0.0.1:41234`. */
  get url(): string {
    return this.baseUrl;
  }

  /** Replaces the script and clears what was recorded. */
  load(lines: ScriptLine[]): void {
    this.loaded = [...lines];
    this.reset();
  }

  /** Rewinds the current script and clears what was recorded. */
  reset(): void {
    this.remaining = [...this.loaded];
    this.requests.length = 0;
    this.unexpected.length = 0;
  }

  leftovers(): ScriptLine[] {
    return [...this.remaining];
  }

  report(): string {
    const left = this.remaining;
    const head =
      `fake-gemini: ${this.requests.length} request(s), ${this.unexpected.length} unexpected, ` +
      `${left.length} of ${this.loaded.length} line(s) left over`;
    return [
      head,
      ...this.unexpected.map((call) => `  unexpected: ${call.message}`),
      ...left.map((line) => `  leftover: ${describeLine(line)}`),
    ].join('\n');
  }

  /** Throws with the report when any call was unexpected or any line was not consumed. */
  assertComplete(): void {
    if (this.unexpected.length > 0 || this.remaining.length > 0) throw new Error(this.report());
  }

  /** Stops listening and destroys open connections, including streams waiting on a delay. */
  async close(): Promise<void> {
    this.closing.abort();
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const { body, bytes } = await readBody(req);
    const { pathname } = new URL(req.url ?? '/', 'http://fake-gemini');
    const route = req.method === 'POST' ? ROUTE.exec(pathname) : null;
    const method = route ? METHOD_OF_ACTION[route[2]] : `${req.method} ${pathname}`;
    const model = route ? decodeURIComponent(route[1]) : '';
    const time = new Date();
    const record: RecordedRequest = { method, model, body, time, bytes };
    this.requests.push(record);
    if (this.resumeAtTurn && method === 'generateContentStream') {
      this.resumeAtTurn = false;
      this.remaining = linesFromTurn(this.remaining, body);
    }
    const byTurn = this.byTurn && method === 'generateContentStream' ? lineForTurn(this.loaded, body) : undefined;
    const line = byTurn ? this.served(byTurn.line) : route ? this.take(method) : undefined;
    if (line) return this.answer(this.usageFromRequest ? withPromptTokens(line, bytes) : line, res, record);
    const why = byTurn ? `no stream line for model turn ${byTurn.turn}` : this.expected();
    const message = `fake-gemini: unexpected ${method} call (model ${model || 'none'}); ${why}`;
    this.unexpected.push({ method, model, message, time });
    sendJson(res, 400, { error: { code: 400, message, status: 'INVALID_ARGUMENT' } });
  }

  /** A by-turn line stays in the script; once served it is no longer a leftover. */
  private served(line: ScriptLine | undefined): ScriptLine | undefined {
    const index = line ? this.remaining.indexOf(line) : -1;
    if (index >= 0) this.remaining.splice(index, 1);
    return line;
  }

  private take(method: string): ScriptLine | undefined {
    const index = this.strict && !this.byTurn ? 0 : this.remaining.findIndex((line) => line.method === method);
    if (this.remaining[index]?.method !== method) return undefined;
    return this.remaining.splice(index, 1)[0];
  }

  private expected(): string {
    const next = this.remaining[0];
    if (!next) return `the script is exhausted (all ${this.loaded.length} line(s) consumed)`;
    if (this.strict && !this.byTurn) {
      const position = this.loaded.length - this.remaining.length + 1;
      return `expected ${next.method} (script entry ${position} of ${this.loaded.length})`;
    }
    return `remaining lines are for: ${[...new Set(this.remaining.map((l) => l.method))].join(', ')}`;
  }

  private async answer(line: ScriptLine, res: http.ServerResponse, record: RecordedRequest): Promise<void> {
    const signal = this.closing.signal;
    if (line.error || line.method !== 'generateContentStream') {
      if (line.delayMs) await sleep(line.delayMs, undefined, { signal });
      if (!line.error) record.usage = usageOf(line.response);
      if (!line.error) return sendJson(res, 200, line.response);
      const { code, message, status, details } = line.error;
      return sendJson(res, code, { error: { code, message, status, ...(details ? { details } : {}) } });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
    record.chunksSent = 0;
    for (const [index, chunk] of (line.response ?? []).entries()) {
      if (index === line.dropAfterChunks) return void res.destroy();
      if (line.delayMs) await sleep(line.delayMs, undefined, { signal });
      if (res.destroyed) return;
      await new Promise((resolve) => res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`, resolve));
      record.chunksSent += 1;
      record.usage = usageOf(chunk) ?? record.usage;
    }
    if (line.dropAfterChunks !== undefined) return void res.destroy();
    res.end();
  }
}

async function readBody(req: http.IncomingMessage): Promise<{ body: unknown; bytes: number }> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const raw = Buffer.concat(parts);
  const text = raw.toString('utf8');
  try {
    return { body: JSON.parse(text), bytes: raw.length };
  } catch {
    return { body: text, bytes: raw.length };
  }
}

/** The line with every `usageMetadata.promptTokenCount` set to bytes / 4, the total adjusted to match. */
function withPromptTokens(line: ScriptLine, bytes: number): ScriptLine {
  const promptTokenCount = Math.ceil(bytes / 4);
  const fix = (chunk: Record<string, unknown>) => {
    const usage = chunk.usageMetadata as Record<string, number> | undefined;
    if (!usage) return chunk;
    const total = promptTokenCount + (usage.candidatesTokenCount ?? 0);
    return { ...chunk, usageMetadata: { ...usage, promptTokenCount, totalTokenCount: total } };
  };
  if (!line.response) return line;
  if (Array.isArray(line.response)) return { ...line, response: line.response.map(fix) } as ScriptLine;
  return { ...line, response: fix(line.response) } as ScriptLine;
}

function usageOf(response: unknown): Record<string, number> | undefined {
  return (response as { usageMetadata?: Record<string, number> } | undefined)?.usageMetadata;
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(value));
}

function describeLine(line: ScriptLine): string {
  if (line.error) return `${line.method} error ${line.error.code} ${line.error.status}`;
  const json = JSON.stringify(line.response);
  return `${line.method} ${json.length > 120 ? `${json.slice(0, 117)}...` : json}`;
}
