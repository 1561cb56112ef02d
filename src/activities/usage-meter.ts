import type { GenerateContentParameters } from '@google/genai';
import { toUsage } from '../core/assemble-turn';
import { addUsage, EMPTY_USAGE, type RequestUsage, type TokenUsage } from '../core/types';
import type { JsonModelSeam } from '../model/seam';

export type ModelUsage = Record<string, TokenUsage>;

/** What a metered activity adds to its result: each model's sum, and each request. */
export interface Metered {
  usage: ModelUsage;
  requests: RequestUsage[];
}

/**
 * Wraps the non-streaming model seam to count the tokens of every answer, per request and per model, so that
 * utility calls (routing, loop checks, next speaker, compression, edit fixing, the web tools) count in a prompt's
 * stats, cost and budget like its main requests. Only answers are counted: a request that failed before it answered
 * reported no usage.
 */
export function meterModels(models: JsonModelSeam): { models: JsonModelSeam; metered(): Metered } {
  const usage: ModelUsage = {};
  const requests: RequestUsage[] = [];
  return {
    models: {
      async generateContent(request: GenerateContentParameters) {
        const response = await models.generateContent(request);
        if (response.usageMetadata) {
          const counted = toUsage(response.usageMetadata);
          usage[request.model] = addUsage(usage[request.model] ?? EMPTY_USAGE, counted);
          requests.push({ model: request.model, usage: counted });
        }
        return response;
      },
    },
    metered: () => ({ usage, requests }),
  };
}
