import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { EnvRedaction } from '../activities/env-filter';
import { BUILTIN_AGENTS } from '../core/agents/builtins';
import type { PromptInput } from '../workflows/api';
import { loadAgentFiles, type AgentDirs } from './agents';
import type { Config } from './env';
import { atConfigEdge, ConfigError } from './errors';
import { loadPolicyFiles, type PolicyDirs } from './policies';
import { contextFileNames, hookSettings, loadEnvRedaction, readSettingsFiles, webSettings } from './settings';
import type { LoadedSettings, SettingsFiles } from './settings';
import { mcpServers } from './mcp-settings';
import { geminiSettings, type GeminiSettings } from './gemini-settings';
import type { ModelSettings } from './model-settings';
import { readTrustedFolders, trustingFolder } from './trusted-folders';

/**
 * A prompt's configuration files, read once at the process edge (invariant 9) and handed to the
 * workflow as input, so workers need no configuration of their own. The user's files under the home
 * are always read: they are the user's own. The workspace's `.durable-agent/` policies, settings
 * (hooks, MCP servers) and agents are read only when the
 * workspace is trusted; otherwise they are not even opened, and one warning line names them. A file
 * that cannot be used stops the command with a `ConfigError` (exit 52) before anything starts.
 */

/** Where configuration is read from; every future settings reader takes its files from here. */
export interface ConfigSources {
  policies: PolicyDirs;
  settings: SettingsFiles;
  agents: AgentDirs;
}

/** Where warnings go (the CLI's stderr), line by line as they are found. */
export interface Warnings {
  stderr: { write(text: string): unknown };
}

/** The workspace's own configuration, relative to its root, as named in the warning. */
const WORKSPACE_ENTRIES = ['.durable-agent/policies', '.durable-agent/settings.json', '.durable-agent/agents'];

export function configSources(
  config: Config,
  workspace: string,
  trusted: boolean,
  extraPolicyFiles: string[] = [],
): ConfigSources {
  const own = (name: string) => (trusted ? path.join(workspace, '.durable-agent', name) : undefined);
  return {
    policies: {
      workspaceDir: own('policies'),
      userDir: path.join(config.home, 'policies'),
      adminDir: config.adminPolicyDir,
      extraFiles: extraPolicyFiles,
    },
    settings: { workspaceFile: own('settings.json'), userFile: path.join(config.home, 'settings.json') },
    agents: { workspaceDir: own('agents'), userDir: path.join(config.home, 'agents') },
  };
}

export type WorkspaceConfig = Required<Pick<PromptInput, 'policyRules' | 'agents' | 'workspaceTrusted'>> &
  Pick<PromptInput, 'hooks' | 'contextFileNames' | 'mcpServers' | 'web' | 'systemMd' | 'checkpointing'> &
  ModelSettings;

/**
 * A command's settings, read once: whether the workspace is trusted, both settings files as read and
 * Gemini CLI's keys validated. Every section a prompt gets (hooks, MCP servers, context file names,
 * tool rules, models, defaults) is taken from this one object; nothing reads the files again.
 */
export interface CommandSettings {
  trusted: boolean;
  files: LoadedSettings;
  gemini: GeminiSettings;
}

/** `workspace` is a real path; `trustFlag` is `--trust-workspace`. */
export async function loadSettings(config: Config, workspace: string, trustFlag?: boolean): Promise<CommandSettings> {
  return settingsOf(config, workspace, await isWorkspaceTrusted(config, workspace, trustFlag));
}

async function settingsOf(config: Config, workspace: string, trusted: boolean): Promise<CommandSettings> {
  const files = await atConfigEdge(() => readSettingsFiles(configSources(config, workspace, trusted).settings));
  return { trusted, files, gemini: await atConfigEdge(async () => geminiSettings(files)) };
}

/**
 * Policies of every tier, the agents `invoke_agent` may start (the built-ins first) and the hooks.
 * `workspace` is a real path; `trustFlag` is `--trust-workspace`; `settings`, when the command has
 * already read them, are used rather than read again.
 */
export async function loadWorkspaceConfig(
  config: Config,
  workspace: string,
  options: { policyFiles?: string[]; trustFlag?: boolean; settings?: CommandSettings },
  io: Warnings,
): Promise<WorkspaceConfig> {
  const trusted = options.settings?.trusted ?? (await isWorkspaceTrusted(config, workspace, options.trustFlag));
  if (!trusted) await warnIgnored(workspace, io);
  const sources = configSources(config, workspace, trusted, options.policyFiles);
  const policies = await atConfigEdge(() => loadPolicyFiles(sources.policies));
  for (const warning of policies.warnings) io.stderr.write(`[WARNING] policy: ${warning}\n`);
  const agents = await atConfigEdge(() => loadAgentFiles(sources.agents));
  for (const warning of agents.warnings) io.stderr.write(`[WARNING] agents: ${warning}\n`);
  const { files, gemini } = options.settings ?? (await settingsOf(config, workspace, trusted));
  for (const warning of gemini.warnings) io.stderr.write(`[WARNING] settings: ${warning}\n`);
  return {
    policyRules: [...policies.rules, ...gemini.rules],
    agents: [...BUILTIN_AGENTS, ...agents.agents],
    ...(await atConfigEdge(async () => fromSettings(files))),
    workspaceTrusted: trusted,
    ...gemini.models,
    ...(gemini.checkpointing ? { checkpointing: gemini.checkpointing } : {}),
    ...(await systemMdInput(config)),
  };
}

/** The prompt input's sections that come from the settings files. */
function fromSettings(
  files: LoadedSettings,
): Pick<WorkspaceConfig, 'hooks' | 'contextFileNames' | 'mcpServers' | 'web'> {
  return {
    hooks: hookSettings(files),
    contextFileNames: contextFileNames(files),
    ...definedMcp(mcpServers(files)),
    ...definedWeb(webSettings(files)),
  };
}

/**
 * `GEMINI_SYSTEM_MD` / `GEMINI_WRITE_SYSTEM_MD` for the prompt. A replacement file that cannot be read
 * stops the CLI here, as Gemini CLI refuses a missing one, rather than failing the prompt's first request.
 */
async function systemMdInput(config: Config): Promise<Pick<PromptInput, 'systemMd'>> {
  const { replace } = config.systemMd;
  if (replace) {
    await fs.access(replace).catch(() => {
      throw new ConfigError('environment', `GEMINI_SYSTEM_MD: missing system prompt file '${replace}'`);
    });
  }
  return Object.keys(config.systemMd).length > 0 ? { systemMd: config.systemMd } : {};
}

/**
 * Gemini CLI's `model.name` and `general.defaultApprovalMode` from the settings files, which a run
 * uses when its command line does not say (flags > settings > defaults, as in Gemini CLI).
 */
export function settingsDefaults(settings: CommandSettings) {
  const { model, approvalMode, warnings } = settings.gemini;
  return { model, approvalMode, warnings };
}

/**
 * Whether the workspace's own configuration applies: a folder of `<home>/trusted-folders.json` is
 * it or one of its ancestors, or trust was given for this process (`--trust-workspace`,
 * `DURABLE_AGENT_TRUST_WORKSPACE=1`). `workspace` is a real path.
 */
export async function isWorkspaceTrusted(
  config: Config,
  workspace: string,
  flag: boolean | undefined,
): Promise<boolean> {
  if (flag || config.trustWorkspace) return true;
  return trustingFolder(await atConfigEdge(() => readTrustedFolders(config.home)), workspace) !== undefined;
}

/** A prompt without MCP servers keeps the input it always had. */
function definedMcp(mcpServers: PromptInput['mcpServers']): Pick<PromptInput, 'mcpServers'> {
  return mcpServers ? { mcpServers } : {};
}

function definedWeb(web: PromptInput['web']): Pick<PromptInput, 'web'> {
  return web ? { web } : {};
}

/** The user's `security.environmentVariableRedaction`, read where a worker starts. */
export function loadWorkerEnvRedaction(config: Config): Promise<EnvRedaction> {
  return atConfigEdge(() => loadEnvRedaction(path.join(config.home, 'settings.json')));
}

/** One line, only when the untrusted workspace has configuration of its own. */
async function warnIgnored(workspace: string, io: Warnings): Promise<void> {
  const present = await Promise.all(
    WORKSPACE_ENTRIES.map((entry) =>
      fs.lstat(path.join(workspace, entry)).then(
        () => true,
        () => false,
      ),
    ),
  );
  const ignored = WORKSPACE_ENTRIES.filter((_, k) => present[k]);
  if (ignored.length === 0) return;
  io.stderr.write(
    `[WARNING] the workspace ${workspace} is not trusted: its ` +
      `${ignored.join(', ')} ${ignored.length > 1 ? 'are' : 'is'} ignored. ` +
      `Trust it with \`durable-agent trust ${workspace}\`, or for one run with --trust-workspace.\n`,
  );
}
