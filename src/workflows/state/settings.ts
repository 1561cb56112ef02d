import { BUILTIN_AGENTS } from '../../core/agents/builtins';
import type { AgentDefinition } from '../../core/agents/definition';
import type { LoopCheckModels } from '../../core/loop/llm-schedule';
import type { PolicyRule } from '../../core/policy/types';
import { SIDE_CALL_MODELS } from '../../core/models';
import type { PromptInput } from '../api';

/**
 * Every tunable of a prompt that has a default, in one table: the input is normalised once, at the start of each run,
 * and the loop reads `state.settings` instead of repeating `?? default` where a field is used. The input itself
 * travels on unchanged (continue-as-new, sub-agents), so a default changed here applies to runs that start after.
 */
export const PROMPT_DEFAULTS = {
  /** Per-call timeout of `run_shell_command` (Gemini CLI: 5 minutes). */
  shellTimeoutMs: 300_000,
  /** Activity heartbeat timeout of tools: how fast a dead worker's call is retried elsewhere. */
  toolHeartbeatTimeoutMs: 30_000,
  /** Activity heartbeat timeout of model calls: how fast a dead worker's model call is retried. */
  modelHeartbeatTimeoutMs: 15_000,
  /** First retry delay of a failed model call, doubled up to 30 s (Gemini CLI: 5 s). */
  modelRetryInitialMs: 5000,
  /** Attempts of one model call before it fails (Gemini CLI: 10). */
  modelMaxAttempts: 10,
  nextSpeakerModel: SIDE_CALL_MODELS.nextSpeaker,
  /** The edit fixer's model, the one call that corrects a `replace` whose old_string was not found (Gemini CLI's). */
  editFixerModel: SIDE_CALL_MODELS.editFixer,
  classifierModel: SIDE_CALL_MODELS.classifier,
  /** Gemini CLI's loop-check models: a fast judge and a stronger one that must confirm it. */
  loopCheckModels: { fast: SIDE_CALL_MODELS.loopCheck, confirm: SIDE_CALL_MODELS.loopConfirm } as LoopCheckModels,
  /** How long a prompt flagged twice as looping waits for `loopDecision` before it ends. */
  loopDecisionTimeoutMs: 30 * 60_000,
  /**
   * Events at which a run continues as new even before Temporal suggests it (at 4,096): a worker that takes a prompt
   * over replays its current run in one workflow task, and near 4,000 events that took 8 to 9 s on a loaded 2-core
   * machine, too close to the 10 s workflow task timeout.
   */
  maxRunEvents: 2000,
  policyRules: [] as PolicyRule[],
  agents: BUILTIN_AGENTS as readonly AgentDefinition[],
};

export type PromptSettings = Omit<PromptInput, keyof typeof PROMPT_DEFAULTS> & typeof PROMPT_DEFAULTS;

export function settingsOf(input: PromptInput): PromptSettings {
  const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  return { ...PROMPT_DEFAULTS, ...given } as PromptSettings;
}
