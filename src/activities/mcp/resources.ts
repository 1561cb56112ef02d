import { LIST_RESOURCES_TOOL, MCP_DEFAULT_TIMEOUT_MS, type McpServerConfig } from '../../core/mcp';
import type { McpPool, McpTarget } from './pool';

/** The servers with resources a resource tool may ask, by name. */
export type ResourceServers = Record<string, McpServerConfig>;

/**
 * `list_mcp_resources` (every server's, or `serverName`'s) and `read_mcp_resource` (the first
 * server that lists the URI, else every server in turn), as text for the model. Throws what the
 * servers answered when nothing could be read; the caller makes that an error result.
 */
export async function resourceText(
  pool: McpPool,
  servers: ResourceServers,
  workspace: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<string> {
  const targets = Object.entries(servers).map(
    ([server, config]): McpTarget => ({
      server,
      config,
      workspace,
      timeoutMs: config.timeout ?? MCP_DEFAULT_TIMEOUT_MS,
    }),
  );
  if (tool === LIST_RESOURCES_TOOL) {
    const wanted = typeof args.serverName === 'string' ? targets.filter((t) => t.server === args.serverName) : targets;
    if (wanted.length === 0) throw new Error(`no MCP server named "${String(args.serverName)}" offers resources`);
    const lines = await Promise.all(wanted.map((t) => listLines(pool, t)));
    return lines.flat().join('\n') || 'No resources.';
  }
  const uri = String(args.uri ?? '');
  const errors: string[] = [];
  for (const target of targets) {
    try {
      const client = await pool.client(target);
      const read = await client.readResource({ uri }, { timeout: target.timeoutMs });
      return read.contents
        .map((c) => ('text' in c ? String(c.text) : `[binary ${c.mimeType ?? 'content'}]`))
        .join('\n');
    } catch (err) {
      errors.push(`${target.server}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw new Error(`resource ${uri} could not be read (${errors.join('; ')})`);
}

async function listLines(pool: McpPool, target: McpTarget): Promise<string[]> {
  const client = await pool.client(target);
  const { resources } = await client.listResources(undefined, { timeout: target.timeoutMs });
  return resources.map((r) => `${target.server}: ${r.uri} (${r.name}${r.mimeType ? `, ${r.mimeType}` : ''})`);
}
