/**
 * What an editor may choose for a session: our approval modes as ACP session modes, the model
 * catalogue as the `model` config option (ACP v1's way to pick a model), and the slash commands
 * chat has, advertised with `available_commands_update`.
 */
import type { AvailableCommand, SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import { AUTO_GEMINI_2_5, AUTO_MODEL, GEMINI_2_5, GEMINI_3 } from '../core/models';
import { APPROVAL_MODES, type ApprovalMode } from '../core/types';

const MODE_TEXT: Record<ApprovalMode, { name: string; description: string }> = {
  default: { name: 'Default', description: 'Ask before edits, commands and fetches' },
  auto_edit: { name: 'Auto edit', description: 'Edit files without asking; ask for the rest' },
  yolo: { name: 'YOLO', description: 'Run every call without asking' },
  plan: { name: 'Plan', description: 'Read and plan only; no changes' },
};

export function modeState(current: ApprovalMode): SessionModeState {
  return { currentModeId: current, availableModes: APPROVAL_MODES.map((id) => ({ id, ...MODE_TEXT[id] })) };
}

export function isApprovalMode(id: string): id is ApprovalMode {
  return (APPROVAL_MODES as readonly string[]).includes(id);
}

export const MODEL_OPTION = 'model';

/** The models an editor offers: `auto` (a classifier picks per prompt), its families, and each model by role. */
export const MODEL_CHOICES: readonly string[] = [
  AUTO_MODEL,
  AUTO_GEMINI_2_5,
  GEMINI_3.strong,
  GEMINI_3.fast,
  GEMINI_3.lite,
  GEMINI_2_5.strong,
  GEMINI_2_5.fast,
  GEMINI_2_5.lite,
];

export function configOptions(model: string): SessionConfigOption[] {
  const choices = MODEL_CHOICES.includes(model) ? MODEL_CHOICES : [model, ...MODEL_CHOICES];
  return [
    {
      id: MODEL_OPTION,
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: model,
      options: choices.map((value) => ({ value, name: value })),
    },
  ];
}

/** Chat's commands that make sense in an editor (leaving and closing are the editor's own). */
export const COMMANDS: AvailableCommand[] = [
  { name: 'status', description: 'Where the session stands: its prompts, the running one, its tokens' },
  { name: 'clear', description: 'Start a fresh conversation in the same session' },
  { name: 'compress', description: 'Compress the conversation now' },
  { name: 'help', description: 'The commands' },
];
