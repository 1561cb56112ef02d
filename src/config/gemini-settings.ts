import { z } from 'zod';
import { describeIssues } from '../core/confirmation';
import { SHELL_TOOL, type PolicyRule } from '../core/policy/types';
import type { ApprovalMode } from '../core/types';
import { inMergeOrder, readingOnly, SettingsFileError, type LoadedSettings } from './settings';
import {
  MODEL_CONFIGS_KEYS,
  modelConfigsSchema,
  modelPrices,
  modelPricesSchema,
  modelSettings,
  type ModelSettings,
} from './model-settings';

/**
 * Gemini CLI's settings keys that mean something here, read from our settings files (the
 * workspace's over the user's, as Gemini CLI merges them): `model.name`, `general.defaultApprovalMode`,
 * and the tool lists `tools.exclude`, `tools.confirmationRequired`, `tools.allowed` and `tools.core`
 * (policy rules at Gemini CLI 0.61.0's user-tier priorities, so they combine as there).
 * Every other key that is not ours is named in a warning rather than ignored in silence.
 */
const toolList = z.array(z.string().trim().min(1, 'must not be empty')).optional();

const geminiKeys = z.object({
  model: z
    .looseObject({ name: z.string().trim().min(1, 'must not be empty').optional(), prices: modelPricesSchema })
    .optional(),
  general: z
    .looseObject({
      // Gemini CLI's settings cannot say yolo: only -y or --approval-mode can.
      defaultApprovalMode: z.enum(['default', 'auto_edit', 'plan']).optional(),
    })
    .optional(),
  tools: z
    .looseObject({
      core: toolList,
      exclude: toolList,
      allowed: toolList,
      confirmationRequired: toolList,
    })
    .optional(),
  modelConfigs: modelConfigsSchema,
});

/** Keys of ours or read above; anything else in a settings file is reported as ignored. */
const USED = new Set([
  '$schema',
  'context.fileName',
  'hooks',
  'hooksConfig.enabled',
  'hooksConfig.disabled',
  'security.environmentVariableRedaction',
  'mcpServers',
  'model.name',
  'model.prices',
  'general.defaultApprovalMode',
  'tools.core',
  'tools.exclude',
  ...MODEL_CONFIGS_KEYS,
  'tools.allowed',
  'tools.confirmationRequired',
]);

export interface GeminiSettings {
  model?: string;
  approvalMode?: ApprovalMode;
  rules: PolicyRule[];
  warnings: string[];
  /** `modelConfigs`: model names that replace the catalogue's; `model.prices`: prices over the catalogue's. */
  models: ModelSettings;
}

export function geminiSettings(loaded: LoadedSettings): GeminiSettings {
  const out: GeminiSettings = { rules: [], warnings: [], models: {} };
  const modelConfigs: z.infer<typeof modelConfigsSchema>[] = [];
  const prices: z.infer<typeof modelPricesSchema>[] = [];
  for (const { file, settings: raw } of inMergeOrder(loaded)) {
    const parsed = geminiKeys.safeParse(raw);
    if (!parsed.success) throw new SettingsFileError(`${file}: ${describeIssues(parsed.error)}`);
    const { model, general, tools } = parsed.data;
    modelConfigs.push(parsed.data.modelConfigs);
    prices.push(model?.prices);
    // The workspace's file comes second and wins, as in Gemini CLI.
    out.model = model?.name ?? out.model;
    out.approvalMode = general?.defaultApprovalMode ?? out.approvalMode;
    out.rules.push(...toolRules(file, tools ?? {}));
    const ignored = leafKeys(raw).filter((key) => !USED.has(key));
    if (ignored.length > 0)
      out.warnings.push(`${file}: ${ignored.join(', ')}: not used by durable-agent (Gemini CLI settings it ignores)`);
  }
  const priced = modelPrices(prices);
  out.models = { ...modelSettings(modelConfigs), ...(priced ? { modelPrices: priced } : {}) };
  return out;
}

export const loadGeminiSettings = readingOnly(geminiSettings);

type ToolLists = Partial<Record<'core' | 'exclude' | 'allowed' | 'confirmationRequired', string[]>>;

/**
 * Gemini CLI 0.61.0's rules for the tool lists (user tier ×1000): `tools.exclude` denies (400);
 * `tools.confirmationRequired` asks (350), above the allow lists, so a tool named there asks even when
 * `tools.core` or `tools.allowed` names it too; `tools.allowed` allows (300), and a narrowed
 * `run_shell_command(cmd)` there refuses the tool's other commands (290); `tools.core` allows the listed
 * tools (250) and refuses every other one (240) outside plan mode. `tool(args)` narrows only the shell.
 */
function toolRules(file: string, lists: ToolLists): PolicyRule[] {
  const rule = (name: string, decision: PolicyRule['decision'], priority: number, key: string): PolicyRule => {
    const [, raw, prefix] = /^([^(]+)(?:\((.*)\))?$/.exec(name.trim()) ?? [name, name];
    const tool = raw.trim() === 'ShellTool' ? SHELL_TOOL : raw.trim();
    const narrowed = tool === SHELL_TOOL && prefix?.trim();
    return {
      toolName: tool,
      ...(narrowed ? { commandPrefix: prefix.trim() } : {}),
      decision,
      priority,
      tier: 'user',
      source: `${file}: ${key}`,
    };
  };
  const rules = (lists.exclude ?? []).map((name) => rule(name, 'deny', 400, 'tools.exclude'));
  rules.push(
    ...(lists.confirmationRequired ?? []).map((name) => rule(name, 'ask_user', 350, 'tools.confirmationRequired')),
  );
  const allowed = (lists.allowed ?? []).map((name) => rule(name, 'allow', 300, 'tools.allowed'));
  rules.push(...allowed);
  if (allowed.some((r) => r.commandPrefix !== undefined)) rules.push(rule(SHELL_TOOL, 'deny', 290, 'tools.allowed'));
  if (lists.core) {
    const modes: PolicyRule['modes'] = ['default', 'auto_edit', 'yolo'];
    rules.push(...lists.core.map((name) => ({ ...rule(name, 'allow', 250, 'tools.core'), modes })));
    // Only the listed tools: everything else is refused, outside plan mode (Gemini CLI's 4.24).
    rules.push({ ...rule('*', 'deny', 240, 'tools.core'), modes });
  }
  return rules;
}

/** `section.key` paths of a settings object; our free-form sections count as one key. */
function leafKeys(settings: Record<string, unknown>): string[] {
  const keys: string[] = [];
  for (const [section, value] of Object.entries(settings)) {
    if (USED.has(section) || value === null || typeof value !== 'object' || Array.isArray(value)) {
      keys.push(section);
      continue;
    }
    for (const key of Object.keys(value)) keys.push(`${section}.${key}`);
  }
  return keys;
}
