import { z } from 'zod';
import { SIDE_CALL_MODELS, type ModelPrice, type TokenRates } from '../core/models';
import type { PromptInput } from '../workflows/api';

/**
 * Gemini CLI's `modelConfigs` settings, the parts that name models: `modelIdResolutions` (a requested
 * name → `{ "default": model }`, sent instead wherever it is requested) and `customAliases` of the
 * side calls' aliases (`{ "modelConfig": { "model": ... } }`). Gemini CLI's other `modelConfigs` keys
 * (generation config overrides, model definitions) are not read.
 */
const modelName = z.string().trim().min(1, 'must not be empty');
const alias = z.looseObject({ modelConfig: z.looseObject({ model: modelName.optional() }).optional() });
export const modelConfigsSchema = z
  .looseObject({
    modelIdResolutions: z.record(z.string(), z.looseObject({ default: modelName })).optional(),
    customAliases: z.record(z.string(), alias).optional(),
  })
  .optional();
export type ModelConfigsSettings = z.infer<typeof modelConfigsSchema>;

/** The `modelConfigs` keys read here, for the list of settings that mean something. */
export const MODEL_CONFIGS_KEYS = ['modelConfigs.modelIdResolutions', 'modelConfigs.customAliases'];

export type ModelSettings = Pick<
  PromptInput,
  'modelResolutions' | 'classifierModel' | 'nextSpeakerModel' | 'editFixerModel' | 'loopCheckModels' | 'modelPrices'
>;

const usdPerMillion = z
  .number({ error: 'must be a number of US dollars per million tokens' })
  .finite()
  .nonnegative('must not be negative (US dollars per million tokens)');
const rates = {
  input: usdPerMillion,
  cachedInput: usdPerMillion.optional(),
  output: usdPerMillion,
  thinking: usdPerMillion.optional(),
};
const tier = z.strictObject({ ...rates, above: z.number().int().positive('must be a positive number of tokens') });

/**
 * `model.prices`: `{ "<model>": { input, output, cachedInput?, thinking?, longPrompt? } }` in USD per million
 * tokens. `cachedInput` defaults to `input` (no discount assumed) and `thinking` to `output` (as Gemini bills it).
 */
export const modelPricesSchema = z
  .record(z.string().trim().min(1, 'must not be empty'), z.strictObject({ ...rates, longPrompt: tier.optional() }))
  .optional();

/** A settings price with its defaults filled in. */
function fullPrice(p: z.infer<typeof tier> | Omit<z.infer<typeof tier>, 'above'>): TokenRates {
  return { input: p.input, cachedInput: p.cachedInput ?? p.input, output: p.output, thinking: p.thinking ?? p.output };
}

/** Every file's `model.prices` as one table, a later file's entry replacing an earlier one's. */
export function modelPrices(files: z.infer<typeof modelPricesSchema>[]): Record<string, ModelPrice> | undefined {
  const out: Record<string, ModelPrice> = {};
  for (const file of files)
    for (const [model, p] of Object.entries(file ?? {}))
      out[model] = {
        ...fullPrice(p),
        ...(p.longPrompt ? { longPrompt: { ...fullPrice(p.longPrompt), above: p.longPrompt.above } } : {}),
      };
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The prompt input fields `modelConfigs` sets; a later file's entries win over an earlier one's. */
export function modelSettings(files: ModelConfigsSettings[]): ModelSettings {
  const resolutions: Record<string, string> = {};
  const aliases: Record<string, string> = {};
  for (const file of files) {
    for (const [name, to] of Object.entries(file?.modelIdResolutions ?? {})) resolutions[name] = to.default;
    for (const [name, a] of Object.entries(file?.customAliases ?? {}))
      if (a.modelConfig?.model) aliases[name] = a.modelConfig.model;
  }
  const out: ModelSettings = {};
  if (Object.keys(resolutions).length > 0) out.modelResolutions = resolutions;
  if (aliases.classifier) out.classifierModel = aliases.classifier;
  if (aliases['next-speaker-checker']) out.nextSpeakerModel = aliases['next-speaker-checker'];
  if (aliases['llm-edit-fixer']) out.editFixerModel = aliases['llm-edit-fixer'];
  const fast = aliases['loop-detection'];
  const confirm = aliases['loop-detection-double-check'];
  if (fast || confirm)
    out.loopCheckModels = {
      fast: fast ?? SIDE_CALL_MODELS.loopCheck,
      confirm: confirm ?? SIDE_CALL_MODELS.loopConfirm,
    };
  return out;
}
