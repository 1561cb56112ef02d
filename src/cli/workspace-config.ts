import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { AgentDirs } from '../agents/load';
import type { Config } from '../config';
import type { PolicyDirs } from '../policy/load';
import type { SettingsFiles } from '../settings/load';
import type { PromptInput } from '../workflows/messages';
import { loadRunAgents } from './agents';
import type { Io } from './output';
import { loadRunPolicies } from './policies';
import { loadRunHooks } from './settings';
import { isWorkspaceTrusted } from './trust';

/**
 * A prompt's configuration files, read once at the process edge (invariant 9) and handed to the
 * workflow as input. The user's files under the home are always read: they are the user's own. The
 * workspace's `.durable-agent/` policies, settings (hooks; MCP servers will be read from the same
 * settings files) and agents are read only when the workspace is trusted; otherwise they are not
 * even opened, and one warning line names them.
 */

/** Where configuration is read from; every future settings reader takes its files from here. */
export interface ConfigSources {
  policies: PolicyDirs;
  settings: SettingsFiles;
  agents: AgentDirs;
}

/** The workspace's own configuration, relative to its root, as named in the warning. */
const WORKSPACE_ENTRIES = ['.durable-agent/policies', '.durable-agent/settings.json', '.durable-agent/agents'];

export function configSources(config: Config, workspace: string, trusted: boolean, extraPolicyFiles: string[] = []): ConfigSources {
  const own = (name: string) => (trusted ? path.join(workspace, '.durable-agent', name) : undefined);
  return {
    policies: { workspaceDir: own('policies'), userDir: path.join(config.home, 'policies'), adminDir: config.adminPolicyDir, extraFiles: extraPolicyFiles },
    settings: { workspaceFile: own('settings.json'), userFile: path.join(config.home, 'settings.json') },
    agents: { workspaceDir: own('agents'), userDir: path.join(config.home, 'agents') },
  };
}

export type PromptConfig = Required<Pick<PromptInput, 'policyRules' | 'agents' | 'workspaceTrusted'>> & Pick<PromptInput, 'hooks'>;

/** `workspace` is a real path; `trustFlag` is `--trust-workspace`. */
export async function loadPromptConfig(config: Config, workspace: string, options: { policyFiles?: string[]; trustFlag?: boolean }, io: Io): Promise<PromptConfig> {
  const trusted = await isWorkspaceTrusted(config, workspace, options.trustFlag);
  if (!trusted) await warnIgnored(workspace, io);
  const sources = configSources(config, workspace, trusted, options.policyFiles);
  return {
    policyRules: await loadRunPolicies(sources.policies, io),
    agents: await loadRunAgents(sources.agents, io),
    hooks: await loadRunHooks(sources.settings),
    workspaceTrusted: trusted,
  };
}

/** One line, only when the untrusted workspace has configuration of its own. */
async function warnIgnored(workspace: string, io: Io): Promise<void> {
  const present = await Promise.all(WORKSPACE_ENTRIES.map((entry) => fs.lstat(path.join(workspace, entry)).then(() => true, () => false)));
  const ignored = WORKSPACE_ENTRIES.filter((_, k) => present[k]);
  if (ignored.length === 0) return;
  io.stderr.write(
    `[WARNING] the workspace ${workspace} is not trusted: its ${ignored.join(', ')} ${ignored.length > 1 ? 'are' : 'is'} ignored. ` +
      `Trust it with \`durable-agent trust ${workspace}\`, or for one run with --trust-workspace.\n`,
  );
}
