import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Interactive, ProcessRunner } from '../spawner/runner';

/** After a stdin EOF, how long a server gets to exit before its group is stopped. */
const CLOSE_GRACE_MS = 2000;

export interface SpawnedServer {
  command: string;
  args: string[];
  /** The server's whole environment (the caller chooses what of the worker's it gets). */
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * MCP over the stdio of a server started by the spawner, as commands and hooks are: no ancestor of
 * the server holds the worker's environment, so `/proc/$PPID/environ` shows no API key. Messages are
 * JSON lines, as with the SDK's own stdio transport; the server's stderr is dropped.
 */
export class SpawnedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private process?: Interactive;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly server: SpawnedServer,
    private readonly runner: ProcessRunner,
  ) {}

  start(): Promise<void> {
    if (this.process) throw new Error('SpawnedStdioTransport already started');
    const { command, args, env, cwd } = this.server;
    return new Promise((resolve, reject) => {
      const request = { argv: [command, ...args], cwd, env, killGraceMs: CLOSE_GRACE_MS };
      this.process = this.runner.open(request, {
        onOutput: (fd, data) => this.receive(fd, data),
        onStarted: () => resolve(),
      });
      void this.process.done.then((outcome) => {
        if (outcome.error && outcome.pid === undefined) reject(new Error(`${command}: ${outcome.error}`));
        this.onclose?.();
      });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.process) throw new Error('Not connected');
    this.process.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    const running = this.process;
    if (!running) return;
    running.end();
    const stop = setTimeout(() => running.stop(), CLOSE_GRACE_MS);
    await running.done;
    clearTimeout(stop);
    this.buffer.clear();
  }

  private receive(fd: 1 | 2, data: string): void {
    if (fd !== 1) return;
    this.buffer.append(Buffer.from(data, 'utf8'));
    for (;;) {
      try {
        const message = this.buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }
}
