import { AgentFileError, loadAgentFiles, type AgentDirs } from '../agents/load';
import { ConfigError } from '../config';
import { BUILTIN_AGENTS } from '../core/agents/builtins';
import type { AgentDefinition } from '../core/agents/definition';
import type { Io } from './output';

/**
 * The agents `invoke_agent` may start: the built-ins, then the user's (`<home>/agents/*.md`) and,
 * when the workspace is trusted, the workspace's (`<workspace>/.durable-agent/agents/*.md`), read
 * once at the process edge.
 */
export async function loadRunAgents(dirs: AgentDirs, io: Io): Promise<AgentDefinition[]> {
  try {
    const { agents, warnings } = await loadAgentFiles(dirs);
    for (const warning of warnings) io.stderr.write(`[WARNING] agents: ${warning}\n`);
    return [...BUILTIN_AGENTS, ...agents];
  } catch (err) {
    if (err instanceof AgentFileError) throw new ConfigError(`agent file error: ${err.message}`);
    throw err;
  }
}
