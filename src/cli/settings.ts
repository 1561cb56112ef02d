import * as path from 'node:path';
import type { Config } from '../config';
import { ConfigError } from '../config';
import type { HooksConfig } from '../core/hooks/types';
import { loadHookSettings, SettingsFileError } from '../settings/load';

/**
 * Reads the command hooks of the workspace's `.durable-agent/settings.json` and the user's
 * `<home>/settings.json` at the process edge; they travel in the workflow input, so workers need
 * no settings of their own. A bad file stops the command with exit 52 before anything starts.
 */
export async function loadRunHooks(config: Config, workspace: string): Promise<HooksConfig | undefined> {
  try {
    return await loadHookSettings({ workspaceFile: path.join(workspace, '.durable-agent', 'settings.json'), userFile: path.join(config.home, 'settings.json') });
  } catch (err) {
    if (err instanceof SettingsFileError) throw new ConfigError(`settings file error: ${err.message}`);
    throw err;
  }
}
