import { z } from 'zod';
import {
  LIST_RESOURCES_TOOL,
  READ_RESOURCE_TOOL,
  MCP_DEFAULT_TIMEOUT_MS,
  mcpToolName,
  mcpToolWanted,
  type McpServerConfig,
  type McpToolInfo,
} from '../../core/mcp';
import type { TranscriptStore } from '../../store/types';
import type { FunctionDeclaration } from '../../tools';
import type { McpPool, McpTarget } from './pool';

export interface DiscoverMcpInput {
  servers: Record<string, McpServerConfig>;
  workspace: string;
}

export interface DiscoverMcpResult {
  tools: McpToolInfo[];
  /** Servers that declared the resources capability. */
  resourceServers?: string[];
  /** Store reference of the declarations, absent when no server offered a tool. */
  declarationsRef?: string;
  /** One line per server that could not be used, or tool that was left out, for the prompt's events. */
  problems: string[];
}

/** Discovery gives up on a silent server sooner than a call would (Gemini CLI waits the whole timeout). */
const DISCOVERY_TIMEOUT_MS = 30_000;

/** Tools as listed, checked one by one here: the SDK's own check would throw the whole list away for one bad tool. */
const listSchema = z.looseObject({ tools: z.array(z.unknown()) });
const toolSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  inputSchema: z.looseObject({ type: z.literal('object'), properties: z.record(z.string(), z.unknown()).optional() }),
  annotations: z.looseObject({ readOnlyHint: z.boolean().optional() }).optional(),
});

/**
 * Gemini CLI's discovery, as one activity at the start of a prompt: every server is connected (in
 * parallel, through the worker's pool) and its tools listed, named and filtered. A server that
 * fails is a problem line and the others go on; the declarations go to the store, so history holds
 * only names and one reference.
 */
export async function discoverMcpTools(
  deps: { pool: McpPool; store: TranscriptStore },
  input: DiscoverMcpInput,
): Promise<DiscoverMcpResult> {
  const found = await Promise.all(
    Object.entries(input.servers).map(([server, config]) => discoverServer(deps.pool, server, config, input.workspace)),
  );
  const result: DiscoverMcpResult = { tools: [], problems: [] };
  const declarations: FunctionDeclaration[] = [];
  const resourceServers = found.filter((f) => f.resources).map((f) => f.server);
  for (const { tools, problems } of found) {
    result.problems.push(...problems);
    for (const { info, declaration } of tools) {
      if (result.tools.some((t) => t.name === info.name)) {
        result.problems.push(
          `MCP server "${info.server}": tool "${info.tool}" left out: its name ${info.name} is taken`,
        );
        continue;
      }
      result.tools.push(info);
      declarations.push(declaration);
    }
  }
  if (resourceServers.length > 0) {
    result.resourceServers = resourceServers;
    for (const declaration of RESOURCE_DECLARATIONS) {
      result.tools.push({ name: declaration.name, server: '', tool: declaration.name, readOnly: true });
      declarations.push(declaration);
    }
  }
  if (declarations.length > 0) result.declarationsRef = await deps.store.putBlob(JSON.stringify(declarations));
  return result;
}

type Found = { info: McpToolInfo; declaration: FunctionDeclaration };

async function discoverServer(
  pool: McpPool,
  server: string,
  config: McpServerConfig,
  workspace: string,
): Promise<{ server: string; tools: Found[]; problems: string[]; resources?: boolean }> {
  const timeoutMs = Math.min(config.timeout ?? MCP_DEFAULT_TIMEOUT_MS, DISCOVERY_TIMEOUT_MS);
  const target: McpTarget = { server, config, workspace, timeoutMs };
  let listed: unknown[];
  let resources = false;
  try {
    const client = await pool.client(target);
    resources = client.getServerCapabilities()?.resources !== undefined;
    const list =
      client.getServerCapabilities()?.tools === undefined
        ? undefined
        : client.request({ method: 'tools/list', params: {} }, listSchema, { timeout: timeoutMs });
    listed = (await list)?.tools ?? [];
  } catch (err) {
    await pool.drop(target);
    return { server, tools: [], problems: [`MCP server "${server}" could not be used: ${describe(err)}`] };
  }
  return { server, ...toolsOf(server, config, listed), resources };
}

/** The listed tools that pass their schema check and the server's filters, named; a bad one is a problem line. */
function toolsOf(server: string, config: McpServerConfig, listed: unknown[]): { tools: Found[]; problems: string[] } {
  const tools: Found[] = [];
  const problems: string[] = [];
  for (const raw of listed) {
    const parsed = toolSchema.safeParse(raw);
    const name = (raw as { name?: unknown })?.name;
    if (!parsed.success) {
      problems.push(
        `MCP server "${server}": tool ${JSON.stringify(name)} left out: ${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}`,
      );
      continue;
    }
    const tool = parsed.data;
    if (!mcpToolWanted(config, tool.name)) continue;
    const info = {
      name: mcpToolName(server, tool.name),
      server,
      tool: tool.name,
      readOnly: tool.annotations?.readOnlyHint === true,
    };
    const schema = { ...(tool.inputSchema as Record<string, unknown>) };
    delete schema.$schema;
    tools.push({
      info,
      declaration: { name: info.name, description: tool.description ?? '', parametersJsonSchema: schema },
    });
  }
  return { tools, problems };
}

/** Gemini CLI's two resource tools (parameters as it declares them). */
const RESOURCE_DECLARATIONS: FunctionDeclaration[] = [
  {
    name: LIST_RESOURCES_TOOL,
    description: 'Lists the resources the MCP servers offer, with their URIs.',
    parametersJsonSchema: { type: 'object', properties: { serverName: { type: 'string' } } },
  },
  {
    name: READ_RESOURCE_TOOL,
    description: 'Reads one MCP resource by its URI (from list_mcp_resources).',
    parametersJsonSchema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
  },
];

export function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0].slice(0, 300);
}
