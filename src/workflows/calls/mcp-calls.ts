import type { McpServerConfig, McpToolInfo } from '../../core/mcp';
import type { ToolOutcome } from '../../core/types';
import type { CallRecord } from '../api';
import type { PromptRun } from '../run/prompt-run';
import type { PromptState } from '../state/prompt-state';
import { emit } from '../run/records';
import type { ToolActs } from './edit-calls';
import { isPatched, PATCHES } from '../patches';
import { setMcp } from '../run/progress';
import { setCallStatus } from '../run/book';

/**
 * Gemini CLI's MCP discovery, once at the start of each run of a prompt: the tools' names stay in
 * the state, their declarations in the store (the request frame names them by reference). A server
 * that could not be used, or a tool left out, is a warning event; the prompt goes on without it.
 */
export async function discoverMcp(run: PromptRun): Promise<void> {
  const { state, acts } = run;
  const servers = state.input.mcpServers;
  if (!servers || Object.keys(servers).length === 0 || !isPatched(PATCHES.mcpDiscovery)) return;
  const found = await acts.discoverMcpTools({ servers, workspace: state.input.workspace });
  setMcp(state, { tools: found.tools, declarationsRef: found.declarationsRef, resourceServers: found.resourceServers });
  for (const message of found.problems) emit(state, { type: 'warning', message });
}

/** The discovered tool the model called by this name, if it is one. */
export function mcpToolOf(state: PromptState, name: string): McpToolInfo | undefined {
  return state.mcp?.tools.find((tool) => tool.name === name);
}

export function mcpToolNames(state: PromptState): string[] {
  return state.mcp?.tools.map((tool) => tool.name) ?? [];
}

/** Arguments of an MCP call are the server's to check; here they only have to be an object. */
export function mcpArgsProblem(record: CallRecord): string | undefined {
  const args = record.args as unknown;
  if (args !== null && typeof args === 'object' && !Array.isArray(args)) return undefined;
  return `Invalid arguments for ${record.name}: expected a JSON object of named parameters.`;
}

export function runMcpCall(
  state: PromptState,
  record: CallRecord,
  tool: McpToolInfo,
  acts: ToolActs,
): Promise<ToolOutcome> {
  setCallStatus(record, 'executing');
  return acts.callMcpTool({
    callId: record.callId,
    name: record.name,
    server: tool.server,
    tool: tool.tool,
    config: state.input.mcpServers![tool.server] ?? {},
    args: record.args,
    workspace: state.input.workspace,
    readOnly: tool.readOnly,
    ...(tool.server === '' ? { resourceServers: resourceServers(state) } : {}),
  });
}

function resourceServers(state: PromptState): Record<string, McpServerConfig> {
  const all = state.input.mcpServers ?? {};
  return Object.fromEntries((state.mcp?.resourceServers ?? []).map((name) => [name, all[name]]));
}
