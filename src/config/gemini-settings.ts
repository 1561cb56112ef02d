import { z } from 'zod';
import { describeIssues } from '../core/confirmation';
import type { PolicyRule } from '../core/policy/types';
import type { ApprovalMode } from '../core/types';
import { readSettings, SettingsFileError, type SettingsFiles } from './settings';
import { MODEL_CONFIGS_KEYS, modelConfigsSchema, modelSettings, type ModelSettings } from './model-settings';

/**
 * Gemini CLI's settings keys that mean something here, read from our settings files (the
 * workspace's over the user's, as Gemini CLI merges them): `model.name`, `general.defaultApprovalMode`,
 * `tools.core` and `tools.exclude` (policy rules at Gemini CLI's user-tier priorities 4.25/4.24 and 4.4).
 * Every other key that is not ours is named in a warning rather than ignored in silence.
 */
const geminiKeys = z.object({
  model: z.looseObject({ name: z.string().trim().min(1, 'must not be empty').optional() }).optional(),
  general: z
    .looseObject({
      // Gemini CLI's settings cannot say yolo: only -y or --approval-mode can.
      defaultApprovalMode: z.enum(['default', 'auto_edit', 'plan']).optional(),
    })
    .optional(),
  tools: z
    .looseObject({
      core: z.array(z.string().trim().min(1, 'must not be empty')).optional(),
      exclude: z.array(z.string().trim().min(1, 'must not be empty')).optional(),
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
  'general.defaultApprovalMode',
  'tools.core',
  'tools.exclude',
  ...MODEL_CONFIGS_KEYS,
]);

export interface GeminiSettings {
  model?: string;
  approvalMode?: ApprovalMode;
  rules: PolicyRule[];
  warnings: string[];
  /** `modelConfigs`: model names that replace the catalogue's. */
  models: ModelSettings;
}

export async function loadGeminiSettings(files: SettingsFiles): Promise<GeminiSettings> {
  const out: GeminiSettings = { rules: [], warnings: [], models: {} };
  const modelConfigs: z.infer<typeof modelConfigsSchema>[] = [];
  for (const file of [files.userFile, files.workspaceFile]) {
    const raw = file === undefined ? undefined : await readSettings(file);
    if (raw === undefined) continue;
    const parsed = geminiKeys.safeParse(raw);
    if (!parsed.success) throw new SettingsFileError(`${file}: ${describeIssues(parsed.error)}`);
    const { model, general, tools } = parsed.data;
    modelConfigs.push(parsed.data.modelConfigs);
    // The workspace's file comes second and wins, as in Gemini CLI.
    out.model = model?.name ?? out.model;
    out.approvalMode = general?.defaultApprovalMode ?? out.approvalMode;
    out.rules.push(...toolRules(file!, tools?.core, tools?.exclude));
    const ignored = leafKeys(raw).filter((key) => !USED.has(key));
    if (ignored.length > 0)
      out.warnings.push(`${file}: ${ignored.join(', ')}: not used by durable-agent (Gemini CLI settings it ignores)`);
  }
  out.models = modelSettings(modelConfigs);
  return out;
}

function toolRules(file: string, core: string[] | undefined, exclude: string[] | undefined): PolicyRule[] {
  const rule = (name: string, decision: PolicyRule['decision'], priority: number, key: string): PolicyRule => {
    const [, tool, prefix] = /^([^(]+)(?:\((.*)\))?$/.exec(name.trim()) ?? [name, name];
    return {
      toolName: tool.trim(),
      ...(prefix?.trim() ? { commandPrefix: prefix.trim() } : {}),
      decision,
      priority,
      tier: 'user',
      source: `${file}: ${key}`,
    };
  };
  const rules = (exclude ?? []).map((name) => rule(name, 'deny', 400, 'tools.exclude'));
  if (core) {
    rules.push(...core.map((name) => rule(name, 'allow', 250, 'tools.core')));
    // Only the listed tools: everything else is refused, outside plan mode (Gemini CLI's 4.24).
    rules.push({ ...rule('*', 'deny', 240, 'tools.core'), modes: ['default', 'auto_edit', 'yolo'] });
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
