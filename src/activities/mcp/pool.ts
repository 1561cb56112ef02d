import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../../core/mcp';
import { commandEnvironment } from '../../config/env';
import { withoutSecrets } from '../env-filter';
import { defaultProcessRunner, type ProcessRunner } from '../spawner/runner';
import { SpawnedStdioTransport } from './spawned-stdio';

/** What a connection needs: the server's settings, the prompt's workspace (a stdio server's default cwd). */
export interface McpTarget {
  server: string;
  config: McpServerConfig;
  workspace: string;
  /** Connect timeout, ms. */
  timeoutMs: number;
}

interface Entry {
  client: Promise<Client>;
  lastUsed: number;
}

/** A connection unused this long is closed (a stdio server's process ends with it). */
export const MCP_IDLE_MS = 5 * 60_000;

export interface McpPoolOptions {
  idleMs?: number;
  /**
   * What `$VAR` in a server's `env` and `headers` may expand to: the worker's environment without
   * secrets (the user's redaction settings applied). Default: this process's, filtered, when connecting.
   */
  env?: NodeJS.ProcessEnv;
  /** Starts stdio servers, away from the worker as commands are (default: the process's shared spawner). */
  runner?: ProcessRunner;
}

/**
 * The worker's MCP connections, one per server setting and workspace: opened on first use, shared
 * by every prompt of the worker, dropped when a call finds it broken (the next call reconnects) and
 * closed when idle. Nothing here survives the worker: a new worker connects again, which is why
 * discovery and calls take the server's settings with every input.
 */
export class McpPool {
  private readonly entries = new Map<string, Entry>();
  private readonly timer: NodeJS.Timeout;
  private readonly idleMs: number;

  constructor(private readonly options: McpPoolOptions = {}) {
    const idleMs = (this.idleMs = options.idleMs ?? MCP_IDLE_MS);
    this.timer = setInterval(() => void this.evictIdle(), Math.min(idleMs, 60_000));
    this.timer.unref();
  }

  /**
   * The connected client for `target`, connecting if there is none or its connection was closed (a
   * stdio server that exited); a failed connect is not kept.
   */
  async client(target: McpTarget): Promise<Client> {
    const key = keyOf(target);
    const existing = this.entries.get(key);
    if (existing) {
      existing.lastUsed = Date.now();
      const client = await existing.client.catch(() => undefined);
      if (client?.transport) return client;
      if (this.entries.get(key) === existing) this.entries.delete(key);
      return this.client(target);
    }
    const { env = commandEnvironment(), runner = defaultProcessRunner() } = this.options;
    const client = connect(target, env, runner);
    this.entries.set(key, { client, lastUsed: Date.now() });
    client.catch(() => this.entries.delete(key));
    return client;
  }

  /** Forgets (and closes) the connection of `target`: it failed, so the next use reconnects. */
  async drop(target: McpTarget): Promise<void> {
    const key = keyOf(target);
    const entry = this.entries.get(key);
    this.entries.delete(key);
    await entry?.client.then((c) => c.close()).catch(() => undefined);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.client.then((c) => c.close()).catch(() => undefined)));
  }

  private async evictIdle(): Promise<void> {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      if (now - entry.lastUsed < this.idleMs) continue;
      this.entries.delete(key);
      await entry.client.then((c) => c.close()).catch(() => undefined);
    }
  }
}

function keyOf(target: McpTarget): string {
  return JSON.stringify([target.server, target.config, target.workspace]);
}

async function connect(target: McpTarget, env: NodeJS.ProcessEnv, runner: ProcessRunner): Promise<Client> {
  const client = new Client({ name: 'durable-agent', version: '1' });
  const transport = transportFor(target, env, runner);
  // A server that never answers the handshake must not hold the call for ever: the SDK's own timeout applies.
  client.onerror = () => undefined;
  await client.connect(transport, { timeout: target.timeoutMs });
  // A dropped connection (a stdio server that exited) is noticed by the next call, which fails and drops it.
  return client;
}

function transportFor({ config, workspace }: McpTarget, env: NodeJS.ProcessEnv, runner: ProcessRunner): Transport {
  const headers = expandAll(config.headers, env);
  if (config.httpUrl) return new StreamableHTTPClientTransport(new URL(config.httpUrl), { requestInit: { headers } });
  if (config.url) return new SSEClientTransport(new URL(config.url), { requestInit: { headers } });
  const server = {
    command: config.command!,
    args: config.args ?? [],
    env: { ...withoutSecrets(getDefaultEnvironment()), ...expandAll(config.env, env) },
    cwd: path.resolve(workspace, config.cwd ?? '.'),
  };
  return new SpawnedStdioTransport(server, runner);
}

/**
 * `$VAR` and `${VAR}` from `env`, so a value can stay out of the settings (and history). A name the
 * redaction withholds from commands expands to nothing: `$GEMINI_API_KEY` is never handed to a server.
 */
function expandAll(values: Record<string, string> | undefined, env: NodeJS.ProcessEnv): Record<string, string> {
  const expand = (text: string) =>
    text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, a, b) => env[a ?? b] ?? '');
  return Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, expand(v)]));
}
