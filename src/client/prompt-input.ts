import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PromptInput } from '../workflows/api';
import { InputError } from './input-error';
import { checkAtPaths } from './at-paths';
import { checkPayloadSize } from './payload-limit';
import type { ApprovalMode } from '../core/types';
import { GEMINI_3 } from '../core/models';
import { defaultHost } from '../worker/host';
import { usdSchema } from '../core/spend-limit';

/** A model script that answers the prompt's model calls instead of Gemini (`--fake-responses`). */
export interface FakeResponses {
  path: string;
  strict: boolean;
}

/**
 * What a front end asks for when it starts a prompt, before settings, memory and the workspace's
 * configuration are read: the CLI's `run` flags, or an editor's `session/prompt`.
 */
export interface PromptRequest {
  prompt: string;
  workspace: string;
  approvalMode: ApprovalMode;
  model: string;
  maxTurns: number;
  /** Gemini CLI's maxSessionTurns; unset: no limit. A session keeps the one it was started with. */
  maxSessionTurns?: number;
  /** Nobody follows the prompt from here: it is started and left (the CLI's `--detach`). */
  detach: boolean;
  /** Nobody can answer the prompt's questions as it runs (detached, or no terminal). */
  unattended?: boolean;
  fakeResponses?: FakeResponses;
  shellTimeoutSeconds?: number;
  approvalTimeoutSeconds?: number;
  /** Extra policy files, read at the user tier (Gemini CLI's --policy). */
  policyFiles?: string[];
  /** false turns loop detection off for this prompt. */
  loopDetection?: boolean;
  /** Unset: on for detached runs (nobody is there to say "go on"), off for followed ones. */
  nextSpeakerCheck?: boolean;
  maxTokens?: number;
  /** Spending limit in US dollars (`--max-cost`); with a session, the session's, shared by its prompts. */
  maxCostUsd?: number;
  /** Run the prompt as the next message of this session (created on first use). */
  session?: string;
  /** Gemini CLI's `--resume`: a session id, or `latest` (this workspace's newest running session). */
  resume?: string;
  /** Which of these the front end set; the others may come from the settings files. */
  explicit?: { model: boolean; approvalMode: boolean };
  /** Read the workspace's own configuration without a trusted-folders entry (`--trust-workspace`). */
  trustWorkspace?: boolean;
  /** The host whose workers run the tools (default: this machine's; see worker/host.ts). */
  host?: string;
}

/** The settings a prompt runs with, checked: shared by `run` and by a `chat`'s session defaults. */
export type PromptSettings = Omit<PromptInput, 'prompt'>;

export function promptInput(options: PromptRequest): PromptInput {
  if (!options.prompt.trim()) throw new InputError('the prompt is empty: pass it as an argument or on standard input');
  checkPayloadSize('the prompt', options.prompt, LARGE_TEXT_HINT);
  const settings = promptSettings(options);
  checkAtPaths(options.prompt, settings.workspace);
  return { prompt: options.prompt, ...settings };
}

/** What to do with text too large for a workflow message: the agent reads files of any size. */
export const LARGE_TEXT_HINT = '; put the long text in a file in the workspace and ask the agent to read it';

export function promptSettings(options: Omit<PromptRequest, 'prompt'>): PromptSettings {
  const workspace = path.resolve(options.workspace);
  if (!fs.existsSync(workspace) || !fs.statSync(workspace).isDirectory())
    throw new InputError(`workspace ${workspace} is not a directory`);
  if (!Number.isInteger(options.maxTurns) || options.maxTurns < 1)
    throw new InputError('--max-turns must be a positive whole number');
  const { maxSessionTurns } = options;
  if (maxSessionTurns !== undefined && (!Number.isInteger(maxSessionTurns) || maxSessionTurns < 1))
    throw new InputError('--max-session-turns must be a positive whole number (leave it out for no limit)');
  return {
    workspace: fs.realpathSync(workspace),
    model: modelName(options.model),
    approvalMode: options.approvalMode,
    maxTurns: options.maxTurns,
    ...(maxSessionTurns !== undefined && { maxSessionTurns }),
    shellTimeoutMs: seconds(options.shellTimeoutSeconds, '--shell-timeout'),
    approvalTimeoutMs: seconds(options.approvalTimeoutSeconds, '--approval-timeout'),
    loopDetection: options.loopDetection,
    nextSpeakerCheck: options.nextSpeakerCheck ?? options.detach,
    maxTokens: options.maxTokens,
    ...maxCost(options.maxCostUsd),
    host: options.host ?? defaultHost(),
  };
}

function maxCost(usd: number | undefined): Pick<PromptInput, 'maxCostUsd'> {
  if (usd === undefined) return {};
  const parsed = usdSchema.safeParse(usd);
  if (!parsed.success) throw new InputError(`--max-cost ${parsed.error.issues[0].message}`);
  return { maxCostUsd: parsed.data };
}

function seconds(value: number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value <= 0) throw new InputError(`${flag} must be a positive number of seconds`);
  return Math.round(value * 1000);
}

/**
 * Model names as the Gemini API spells them (`gemini-3.1-pro-preview`, `models/...`, `tunedModels/...`,
 * or `auto`). An empty or malformed name is refused here: the SDK would throw before sending it,
 * or the API answer 400/404, on every attempt of a prompt already started.
 */
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,199}$/;

export function modelName(model: string): string {
  if (MODEL_NAME.test(model) && !model.includes('//') && !model.endsWith('/')) return model;
  const shown =
    model.trim() === '' ? 'an empty name' : JSON.stringify(model.length > 60 ? `${model.slice(0, 60)}…` : model);
  throw new InputError(
    `-m/--model: ${shown} is not a model name (letters, digits, '.', '-', '_', ':', '/'; e.g. ${GEMINI_3.strong})`,
  );
}
