import * as path from 'node:path';
import type { Config } from '../config';
import { ConfigError } from '../config';
import type { HooksConfig } from '../core/hooks/types';
import type { EnvRedaction } from '../activities/env-filter';
import { loadEnvRedaction, loadHookSettings, SettingsFileError, type SettingsFiles } from '../settings/load';

/**
 * Reads the command hooks of the workspace's `.durable-agent/settings.json` (when the workspace is
 * trusted) and the user's `<home>/settings.json` at the process edge; they travel in the workflow
 * input, so workers need no settings of their own. A bad file stops the command with exit 52 before
 * anything starts.
 */
export async function loadRunHooks(files: SettingsFiles): Promise<HooksConfig | undefined> {
  try {
    return await loadHookSettings(files);
  } catch (err) {
    if (err instanceof SettingsFileError) throw new ConfigError(`settings file error: ${err.message}`);
    throw err;
  }
}

/** The user's `security.environmentVariableRedaction`, read where a worker starts; a bad file is exit 52. */
export async function loadWorkerEnvRedaction(config: Config): Promise<EnvRedaction> {
  try {
    return await loadEnvRedaction(path.join(config.home, 'settings.json'));
  } catch (err) {
    if (err instanceof SettingsFileError) throw new ConfigError(`settings file error: ${err.message}`);
    throw err;
  }
}
