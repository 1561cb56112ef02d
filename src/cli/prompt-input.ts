import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PromptInput } from '../workflows/messages';
import { InputError } from './exit-codes';
import type { RunOptions } from './run';

/** The settings a prompt runs with, checked: shared by `run` and by a `chat`'s session defaults. */
export type PromptSettings = Omit<PromptInput, 'prompt'>;

export function promptInput(options: RunOptions): PromptInput {
  if (!options.prompt.trim()) throw new InputError('the prompt is empty: pass it as an argument or on standard input');
  return { prompt: options.prompt, ...promptSettings(options) };
}

export function promptSettings(options: Omit<RunOptions, 'prompt' | 'output'>): PromptSettings {
  const workspace = path.resolve(options.workspace);
  if (!fs.existsSync(workspace) || !fs.statSync(workspace).isDirectory()) throw new InputError(`workspace ${workspace} is not a directory`);
  if (!Number.isInteger(options.maxTurns) || options.maxTurns < 1) throw new InputError('--max-turns must be a positive whole number');
  return {
    workspace: fs.realpathSync(workspace),
    model: options.model,
    approvalMode: options.approvalMode,
    maxTurns: options.maxTurns,
    shellTimeoutMs: seconds(options.shellTimeoutSeconds, '--shell-timeout'),
    approvalTimeoutMs: seconds(options.approvalTimeoutSeconds, '--approval-timeout'),
    loopDetection: options.loopDetection,
    nextSpeakerCheck: options.nextSpeakerCheck ?? options.detach,
    maxTokens: options.maxTokens,
  };
}

function seconds(value: number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value <= 0) throw new InputError(`${flag} must be a positive number of seconds`);
  return Math.round(value * 1000);
}
