import type { GenerateContentParameters } from '@google/genai';
import { addUsage, EMPTY_USAGE, type TokenUsage } from '../core/types';
import type { JsonModelSeam } from '../model/seam';

export type ModelUsage = Record<string, TokenUsage>;

/**
 * Wraps the non-streaming model seam to add up the tokens of every answer per model, so that
 * utility calls (routing, loop checks, next speaker, compression) count in a prompt's stats and
 * budget like its main requests.
 */
export function meterModels(models: JsonModelSeam): { models: JsonModelSeam; usage(): ModelUsage } {
  const usage: ModelUsage = {};
  return {
    models: {
      async generateContent(request: GenerateContentParameters) {
        const response = await models.generateContent(request);
        const u = response.usageMetadata;
        if (u) {
          const counted = {
            input: u.promptTokenCount ?? 0,
            output: u.candidatesTokenCount ?? 0,
            cached: u.cachedContentTokenCount ?? 0,
            thoughts: u.thoughtsTokenCount ?? 0,
            total: u.totalTokenCount ?? 0,
          };
          usage[request.model] = addUsage(usage[request.model] ?? EMPTY_USAGE, counted);
        }
        return response;
      },
    },
    usage: () => usage,
  };
}
