import { GoogleGenAI } from '@google/genai';
import type { Config } from './config';

/** Key used against a fake Gemini server, which accepts any key. Never a real credential. */
export const FAKE_API_KEY = 'fake-gemini-key';

/**
 * The real SDK client. Its own retries are off: Temporal owns retries (invariant 3), and a retry
 * inside one activity attempt would hide failures from the workflow's retry policy.
 */
export function createGenAI(config: Pick<Config, 'geminiApiKey' | 'geminiBaseUrl'>, baseUrlOverride?: string): GoogleGenAI {
  const baseUrl = baseUrlOverride ?? config.geminiBaseUrl;
  const apiKey = config.geminiApiKey ?? (baseUrl ? FAKE_API_KEY : undefined);
  if (!apiKey) throw new MissingApiKeyError();
  return new GoogleGenAI({
    apiKey,
    httpOptions: { ...(baseUrl ? { baseUrl } : {}), retryOptions: { attempts: 1 } },
  });
}

export class MissingApiKeyError extends Error {
  constructor() {
    super('GEMINI_API_KEY is not set. Set it, or point the agent at a fake server with --fake-responses FILE or GOOGLE_GEMINI_BASE_URL.');
    this.name = 'MissingApiKeyError';
  }
}
