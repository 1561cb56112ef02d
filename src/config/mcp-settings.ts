import { z } from 'zod';
import type { McpServerConfig } from '../core/mcp';
import { inMergeOrder, readingOnly, SettingsFileError, type LoadedSettings } from './settings';

/**
 * `mcpServers` of Gemini CLI's settings format, from the user's `<home>/settings.json` and the
 * workspace's `.durable-agent/settings.json` (only given for a trusted workspace, so an untrusted
 * one's servers are never started). A server of the same name in the workspace replaces the user's.
 * A server that does not validate stops the CLI (exit 52) naming the file and the field.
 */

const text = z.string().min(1);
const serverSchema = z
  .looseObject({
    command: text.optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: text.optional(),
    httpUrl: z.url().optional(),
    url: z.url().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    timeout: z.number().int().positive().optional(),
    trust: z.boolean().optional(),
    includeTools: z.array(z.string()).optional(),
    excludeTools: z.array(z.string()).optional(),
  })
  .refine((s) => [s.command, s.httpUrl, s.url].filter((v) => v !== undefined).length === 1, {
    message: 'needs exactly one of "command" (stdio), "httpUrl" (streamable HTTP) or "url" (SSE)',
  });

const serversSchema = z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/), serverSchema);

const KNOWN = Object.keys(serverSchema.shape) as (keyof McpServerConfig)[];

/** The configured servers, user first then workspace; undefined when there are none. */
export function mcpServers(loaded: LoadedSettings): Record<string, McpServerConfig> | undefined {
  const merged: Record<string, McpServerConfig> = {};
  for (const { file, settings } of inMergeOrder(loaded)) {
    const raw = settings.mcpServers;
    if (raw === undefined) continue;
    const parsed = serversSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const message = issue.code === 'invalid_key' ? 'server names use letters, digits, _ . -' : issue.message;
      throw new SettingsFileError(`${file}: mcpServers.${issue.path.join('.')}: ${message}`);
    }
    for (const [name, server] of Object.entries(parsed.data)) merged[name] = pick(server);
  }
  return Object.keys(merged).length > 0 ? merged : undefined;
}

export const loadMcpServers = readingOnly(mcpServers);

/** Only the keys this agent uses travel in the prompt's input. */
function pick(server: McpServerConfig): McpServerConfig {
  return Object.fromEntries(KNOWN.filter((k) => server[k] !== undefined).map((k) => [k, server[k]])) as McpServerConfig;
}
