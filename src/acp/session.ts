/**
 * A session as this editor connection knows it: our session workflow (its id is the ACP session
 * id), the settings it starts with until its first prompt starts it, and the prompt running now.
 */
import { randomBytes } from 'node:crypto';
import type { McpServer, NewSessionRequest } from '@agentclientprotocol/sdk';
import { DEFAULT_MAX_TURNS, type AgentClient, type SessionInput } from '../client';
import type { McpServerConfig } from '../core/mcp';
import { DEFAULT_MODEL } from '../core/models';
import type { ApprovalMode } from '../core/types';
import { newUsageTally, type UsageTally } from './usage';

export interface AcpSession {
  id: string;
  cwd: string;
  /** Set until the first prompt starts the session workflow (update-with-start); the editor may still change them. */
  defaults?: SessionInput['defaults'];
  /** The approval mode the editor shows; a prompt started in another is switched to it. */
  mode: ApprovalMode;
  /** The mode the session's prompts start in. */
  startMode: ApprovalMode;
  model: string;
  running?: { promptId: string };
  /** The usage its prompts added up to, as far as this connection followed them. */
  usage: UsageTally;
}

export async function newSession(client: AgentClient, params: NewSessionRequest): Promise<AcpSession> {
  const request = { workspace: params.cwd, approvalMode: 'default' as const, model: DEFAULT_MODEL };
  const defaults = await client.sessionDefaults({ ...request, maxTurns: DEFAULT_MAX_TURNS });
  const added = Object.fromEntries(params.mcpServers.map((server) => [server.name, mcpConfig(server)]));
  // The editor's servers join the settings' ones for this session; a name in both is the editor's.
  if (params.mcpServers.length > 0) defaults.mcpServers = { ...defaults.mcpServers, ...added };
  const id = `acp-${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)}-${randomBytes(3).toString('hex')}`;
  return {
    id,
    cwd: params.cwd,
    defaults,
    mode: defaults.approvalMode,
    startMode: defaults.approvalMode,
    model: defaults.model,
    usage: newUsageTally(true, defaults.model),
  };
}

/** An editor's MCP server in the settings' format: a stdio command, or streamable HTTP. */
function mcpConfig(server: McpServer): McpServerConfig {
  if ('command' in server) {
    const env = Object.fromEntries(server.env.map((v) => [v.name, v.value]));
    return { command: server.command, args: server.args, ...(server.env.length > 0 && { env }) };
  }
  const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
  const endpoint = server.type === 'sse' ? { url: server.url } : { httpUrl: server.url };
  return { ...endpoint, ...(server.headers.length > 0 && { headers }) };
}
