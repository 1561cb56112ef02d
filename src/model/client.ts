import { GoogleGenAI } from '@google/genai';
import type { Config } from '../config';
import { geminiApiKey } from './api-key';

export { FAKE_API_KEY, MissingApiKeyError } from './api-key';

/**
 * The real SDK client. Its own retries are off: Temporal owns retries (invariant 3), and a retry
 * inside one activity attempt would hide failures from the workflow's retry policy.
 */
export function createGenAI(
  config: Pick<Config, 'geminiApiKey' | 'geminiBaseUrl'>,
  baseUrlOverride?: string,
): GoogleGenAI {
  const baseUrl = baseUrlOverride ?? config.geminiBaseUrl;
  const apiKey = geminiApiKey(config, baseUrlOverride);
  return new GoogleGenAI({
    apiKey,
    httpOptions: { ...(baseUrl ? { baseUrl } : {}), retryOptions: { attempts: 1 } },
  });
}
