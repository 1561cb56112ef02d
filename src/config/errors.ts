/** The kinds of misconfiguration, each with the words the CLI puts before the detail. All exit 52. */
export const CONFIG_ERRORS = {
  environment: 'invalid environment',
  policyFile: 'policy file error',
  agentFile: 'agent file error',
  settingsFile: 'settings file error',
  trustedFolders: 'trusted folders',
} as const;

export type ConfigErrorType = keyof typeof CONFIG_ERRORS;

/**
 * The one error a misconfiguration stops the CLI with, before anything starts (exit 52). The
 * message names the variable or the file and what is wrong with it, so the user knows what to fix.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';

  constructor(
    readonly type: ConfigErrorType,
    detail: string,
  ) {
    super(`${CONFIG_ERRORS[type]}: ${detail}`);
  }
}

/**
 * A configuration file that cannot be used, as its loader reports it (the file, the place in it,
 * the problem). The loaders' own errors extend it; `atConfigEdge` turns it into a `ConfigError`.
 */
export class ConfigFileError extends Error {
  constructor(
    readonly type: ConfigErrorType,
    message: string,
  ) {
    super(message);
  }
}

/** Runs a loader; a file it cannot use stops the command as a `ConfigError`. */
export async function atConfigEdge<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof ConfigFileError) throw new ConfigError(err.type, err.message);
    throw err;
  }
}
