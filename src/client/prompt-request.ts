import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Config } from '../config';
import {
  loadSettings,
  loadWorkspaceConfig,
  settingsDefaults,
  type CommandSettings,
  type Warnings,
} from '../config/workspace';
import type { ApprovalMode } from '../core/types';
import type { Logger } from '../logger';
import { geminiApiKey } from '../model/api-key';
import type { PromptInput, SessionInput } from '../workflows/api';
import { hostIsLocal } from './address';
import { sendToSession, startPrompt } from './agent-client';
import { hasAgentSearchAttributes } from './connection';
import { InputError } from './input-error';
import { promptInput, promptSettings, type PromptRequest, type PromptSettings } from './prompt-input';

/**
 * A prompt's input built from a front end's request as every front end must: checked, the
 * settings files' defaults where the request did not choose, the workspace's trusted configuration
 * (memory, policies, agents, hooks, MCP servers), and the API key required unless scripted.
 * Returns the request as resolved too (its model and approval mode may come from the settings).
 */
export async function buildPromptInput(
  config: Config,
  given: PromptRequest,
  io: Warnings,
  logger: Logger,
): Promise<{ input: PromptInput; request: PromptRequest }> {
  const input = promptInput(given);
  input.hostIsLocal = hostIsLocal(input.host!, config.temporalAddress);
  // The settings files are read once here; the defaults and the prompt's configuration both come from them.
  const settings = await loadSettings(config, input.workspace, given.trustWorkspace);
  const request = withSettingsDefaults(settings, given, input, logger);
  const loaded = await loadWorkspaceConfig(
    config,
    input.workspace,
    { policyFiles: request.policyFiles, trustFlag: request.trustWorkspace, settings },
    io,
  );
  Object.assign(input, loaded);
  if (!request.fakeResponses) geminiApiKey(config);
  if (request.unattended) input.unattended = true;
  return { input, request };
}

/**
 * The settings files' `model.name` and `general.defaultApprovalMode` where the request did not
 * choose (`explicit`); each Gemini CLI key they hold and we ignore is logged as a warning too.
 */
function withSettingsDefaults(
  settings: CommandSettings,
  options: PromptRequest,
  input: PromptInput,
  logger: Logger,
): PromptRequest {
  // Only a request that says what it set takes defaults (`run` does; `demo` keeps its own).
  if (!options.explicit) return options;
  const found = settingsDefaults(settings);
  for (const warning of found.warnings) logger.warn({ settings: warning }, 'Gemini CLI settings key ignored');
  const model = options.explicit.model ? options.model : (found.model ?? options.model);
  const approvalMode: ApprovalMode = options.explicit.approvalMode
    ? options.approvalMode
    : (found.approvalMode ?? options.approvalMode);
  Object.assign(input, { model, approvalMode });
  return { ...options, model, approvalMode };
}

/**
 * The settings of a session's prompts, checked as a prompt's. A person follows them as they run,
 * so no next-speaker check (`chat`).
 */
export function sessionSettings(config: Config, request: Omit<PromptRequest, 'prompt' | 'detach'>): PromptSettings {
  const settings = promptSettings({ ...request, detach: false, nextSpeakerCheck: false });
  settings.hostIsLocal = hostIsLocal(settings.host!, config.temporalAddress);
  return settings;
}

/** What a new session starts with: the request's settings and the workspace's trusted configuration. */
export async function newSessionDefaults(
  config: Config,
  client: Client,
  settings: PromptSettings,
  options: Pick<PromptRequest, 'policyFiles' | 'trustWorkspace'>,
  io: Warnings,
): Promise<NonNullable<SessionInput['defaults']>> {
  const loaded = await loadWorkspaceConfig(
    config,
    settings.workspace,
    { policyFiles: options.policyFiles, trustFlag: options.trustWorkspace },
    io,
  );
  return { ...settings, ...loaded, searchAttributes: await hasAgentSearchAttributes(client) };
}

/**
 * Starts the prompt, or adds it to a session (which runs it as a child prompt when its turn comes);
 * returns the prompt's workflow id.
 */
export async function launchPrompt(
  client: Client,
  input: PromptInput,
  session: string | undefined,
  options: { taskQueue: string; workflowId: string },
): Promise<string> {
  if (!session) return (await startPrompt(client, input, options)).workflowId;
  const { prompt, ...defaults } = input;
  try {
    return await sendToSession(client, session, prompt, {
      taskQueue: options.taskQueue,
      maxCostUsd: input.maxCostUsd,
      defaults: { ...defaults, searchAttributes: await hasAgentSearchAttributes(client) },
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError)
      throw new InputError(`session ${session} is closed: its conversation is over, start another with a new id`);
    throw err;
  }
}
