import type { Config } from '../config';

/** Key used against a fake Gemini server, which accepts any key. Never a real credential. */
export const FAKE_API_KEY = 'fake-gemini-key';

/**
 * The API key model requests will use: the configured one, or the fake key when a base URL points
 * at a fake server. Throws `MissingApiKeyError` otherwise. Kept apart from the SDK so a command can
 * check it before anything starts without loading `@google/genai`.
 */
export function geminiApiKey(config: Pick<Config, 'geminiApiKey' | 'geminiBaseUrl'>, baseUrlOverride?: string): string {
  const baseUrl = baseUrlOverride ?? config.geminiBaseUrl;
  const apiKey = config.geminiApiKey ?? (baseUrl ? FAKE_API_KEY : undefined);
  if (!apiKey) throw new MissingApiKeyError();
  return apiKey;
}

/** Whether model requests would have a key (`geminiApiKey` would not throw). */
export function hasApiKey(config: Pick<Config, 'geminiApiKey' | 'geminiBaseUrl'>): boolean {
  try {
    return !!geminiApiKey(config);
  } catch (err) {
    if (err instanceof MissingApiKeyError) return false;
    throw err;
  }
}

export class MissingApiKeyError extends Error {
  constructor() {
    super(
      'GEMINI_API_KEY is not set. Set it, or point the agent at a fake server with --fake-responses FILE or ' +
        'GOOGLE_GEMINI_BASE_URL.',
    );
    this.name = 'MissingApiKeyError';
  }
}
