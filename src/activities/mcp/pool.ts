import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../../core/mcp';

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

/**
 * The worker's MCP connections, one per server setting and workspace: opened on first use, shared
 * by every prompt of the worker, dropped when a call finds it broken (the next call reconnects) and
 * closed when idle. Nothing here survives the worker: a new worker connects again, which is why
 * discovery and calls take the server's settings with every input.
 */
export class McpPool {
  private readonly entries = new Map<string, Entry>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly idleMs = MCP_IDLE_MS) {
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
    const client = connect(target);
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

async function connect(target: McpTarget): Promise<Client> {
  const client = new Client({ name: 'durable-agent', version: '1' });
  const transport = transportFor(target);
  // A server that never answers the handshake must not hold the call for ever: the SDK's own timeout applies.
  client.onerror = () => undefined;
  await client.connect(transport, { timeout: target.timeoutMs });
  // A dropped connection (a stdio server that exited) is noticed by the next call, which fails and drops it.
  return client;
}

function transportFor({ config, workspace }: McpTarget): Transport {
  const headers = expandAll(config.headers);
  if (config.httpUrl) return new StreamableHTTPClientTransport(new URL(config.httpUrl), { requestInit: { headers } });
  if (config.url) return new SSEClientTransport(new URL(config.url), { requestInit: { headers } });
  return new StdioClientTransport({
    command: config.command!,
    args: config.args ?? [],
    env: { ...getDefaultEnvironment(), ...expandAll(config.env) },
    cwd: path.resolve(workspace, config.cwd ?? '.'),
    stderr: 'ignore',
  });
}

/** `$VAR` and `${VAR}` from the worker's environment, so a secret can stay out of the settings (and history). */
function expandAll(values: Record<string, string> | undefined): Record<string, string> {
  const expand = (text: string) =>
    text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, a, b) => process.env[a ?? b] ?? '');
  return Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, expand(v)]));
}
