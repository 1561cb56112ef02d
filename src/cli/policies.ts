import * as path from 'node:path';
import type { Config } from '../config';
import { ConfigError } from '../config';
import type { PolicyRule } from '../core/policy/types';
import { loadPolicyFiles, PolicyFileError } from '../policy/load';
import type { Io } from './output';

/**
 * Reads the policy files of every tier at the process edge: the workspace's
 * `.durable-agent/policies`, the user's `<home>/policies` and `--policy` files, and the admin
 * directory. A bad file stops the command with exit 52 before anything starts.
 */
export async function loadRunPolicies(config: Config, workspace: string, extraFiles: string[], io: Io): Promise<PolicyRule[]> {
  try {
    const { rules, warnings } = await loadPolicyFiles({
      workspaceDir: path.join(workspace, '.durable-agent', 'policies'),
      userDir: path.join(config.home, 'policies'),
      adminDir: config.adminPolicyDir,
      extraFiles,
    });
    for (const warning of warnings) io.stderr.write(`[WARNING] policy: ${warning}\n`);
    return rules;
  } catch (err) {
    if (err instanceof PolicyFileError) throw new ConfigError(`policy file error: ${err.message}`);
    throw err;
  }
}
