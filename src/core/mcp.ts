import type { PolicyRule } from './policy/types';

/**
 * MCP servers as Gemini CLI's `mcpServers` settings describe them, and the tools they offer. Plain
 * JSON (it travels in the prompt's input) and pure, so the workflow can import it.
 */

/** One entry of `mcpServers`: exactly one of `command` (stdio), `httpUrl` (streamable HTTP) or `url` (SSE). */
export interface McpServerConfig {
  command?: string;
  args?: string[];
  /** Added to the server's environment; `$VAR` and `${VAR}` are expanded on the worker. */
  env?: Record<string, string>;
  /** The server's working directory, relative to the workspace (default: the workspace). */
  cwd?: string;
  httpUrl?: string;
  url?: string;
  /** HTTP headers; `$VAR` and `${VAR}` are expanded on the worker. */
  headers?: Record<string, string>;
  /** Per-request timeout in ms (Gemini CLI: 10 minutes). */
  timeout?: number;
  /** Calls run without asking. */
  trust?: boolean;
  includeTools?: string[];
  excludeTools?: string[];
}

/** Gemini CLI's default MCP request timeout. */
export const MCP_DEFAULT_TIMEOUT_MS = 600_000;

/** A discovered tool: the name the model sees, and where it really lives. */
export interface McpToolInfo {
  name: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  /** The server annotated it `readOnlyHint`: it may run beside other reads and be re-run after a crash. */
  readOnly: boolean;
}

/** What discovery found at the start of a prompt; the declarations themselves stay in the store. */
export interface McpCatalog {
  tools: McpToolInfo[];
  /** Store reference of the tools' function declarations (JSON array). */
  declarationsRef?: string;
  /** Servers that offer resources (then `list_mcp_resources` and `read_mcp_resource` are among the tools). */
  resourceServers?: string[];
}

/** Gemini CLI's resource tools, offered only when some server has resources; they belong to no one server. */
export const LIST_RESOURCES_TOOL = 'list_mcp_resources';
export const READ_RESOURCE_TOOL = 'read_mcp_resource';

/**
 * The name the model sees, as Gemini CLI builds it: `mcp_<server>_<tool>`, every character the
 * Gemini API refuses replaced by `_`, and a name over 63 characters cut to its first 28 and last 32
 * around `___`.
 */
export function mcpToolName(server: string, tool: string): string {
  const valid = `mcp_${server}_${tool}`.replace(/[^a-zA-Z0-9_.-]/g, '_');
  return valid.length > 63 ? `${valid.slice(0, 28)}___${valid.slice(-32)}` : valid;
}

/** Whether `tool` of a server passes its `includeTools` / `excludeTools` (exclusion wins). */
export function mcpToolWanted(config: McpServerConfig, tool: string): boolean {
  if (config.excludeTools?.includes(tool)) return false;
  return !config.includeTools || config.includeTools.includes(tool);
}

/**
 * Gemini CLI's settings-derived rule for a server with `trust: true`: its tools are allowed at the
 * user tier (priority 4.2 there), above the default `ask_user` and below policy files' own rules.
 */
export function mcpTrustRules(servers: Record<string, McpServerConfig> | undefined): PolicyRule[] {
  if (!servers) return [];
  // Gemini CLI's default policy counts the resource tools among the read-only tools (allow @50).
  const resources: PolicyRule = {
    toolName: [LIST_RESOURCES_TOOL, READ_RESOURCE_TOOL],
    decision: 'allow',
    priority: 50,
    tier: 'default',
    source: 'default policy: read-only MCP resource tools',
  };
  return [resources, ...trusted(servers)];
}

function trusted(servers: Record<string, McpServerConfig>): PolicyRule[] {
  return Object.entries(servers)
    .filter(([, config]) => config.trust === true)
    .map(([server]) => ({
      toolName: `mcp_${server}_*`,
      decision: 'allow' as const,
      priority: 200,
      tier: 'user' as const,
      source: `settings: mcpServers.${server}.trust`,
    }));
}
