/**
 * The environment given to shell commands and hooks: the worker's, without what looks like a
 * secret (invariant 8). Names are matched case-insensitively; values that are URLs carrying a
 * password (`scheme://user:pass@host`) are dropped whatever their name.
 */

/** Names containing one of these words are withheld (GEMINI_API_KEY, GITHUB_TOKEN, PGPASSWORD, ...). */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE/i;
/** The agent's own credentials: withheld even when allow-listed. */
const AGENT_SECRETS = new Set(['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'DURABLE_AGENT_STORE']);
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:[^\s/?#@]*@/i;

/** `security.environmentVariableRedaction` of the user's settings (Gemini CLI's key). */
export interface EnvRedaction {
  /** Names passed through although they look like secrets. */
  allowed?: string[];
  /** Names always withheld. */
  blocked?: string[];
}

export function isSecretEnv(name: string, value: string | undefined, redaction: EnvRedaction = {}): boolean {
  if (AGENT_SECRETS.has(name.toUpperCase()) || redaction.blocked?.includes(name)) return true;
  if (redaction.allowed?.includes(name)) return false;
  return SECRET_NAME.test(name) || (value !== undefined && URL_WITH_PASSWORD.test(value));
}

/** The environment without the variables `isSecretEnv` names. */
export function withoutSecrets(env: NodeJS.ProcessEnv, redaction: EnvRedaction = {}): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name, value]) => !isSecretEnv(name, value, redaction)));
}
