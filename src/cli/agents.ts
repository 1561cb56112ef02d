import * as path from 'node:path';
import { AgentFileError, loadAgentFiles } from '../agents/load';
import { ConfigError, type Config } from '../config';
import { BUILTIN_AGENTS } from '../core/agents/builtins';
import type { AgentDefinition } from '../core/agents/definition';
import type { Io } from './output';

/**
 * The agents `invoke_agent` may start: the built-ins, then the user's (`<home>/agents/*.md`) and
 * the workspace's (`<workspace>/.durable-agent/agents/*.md`), read once at the process edge.
 */
export async function loadRunAgents(config: Config, workspace: string, io: Io): Promise<AgentDefinition[]> {
  try {
    const { agents, warnings } = await loadAgentFiles({
      userDir: path.join(config.home, 'agents'),
      workspaceDir: path.join(workspace, '.durable-agent', 'agents'),
    });
    for (const warning of warnings) io.stderr.write(`[WARNING] agents: ${warning}\n`);
    return [...BUILTIN_AGENTS, ...agents];
  } catch (err) {
    if (err instanceof AgentFileError) throw new ConfigError(`agent file error: ${err.message}`);
    throw err;
  }
}
