import type { PolicyRule } from '../core/policy/types';
import { ConfigError } from '../config';
import { loadPolicyFiles, PolicyFileError, type PolicyDirs } from '../policy/load';
import type { Io } from './output';

/**
 * Reads the policy files of every tier at the process edge: the workspace's
 * `.durable-agent/policies` (when the workspace is trusted), the user's `<home>/policies` and
 * `--policy` files, and the admin directory. A bad file stops the command with exit 52 before
 * anything starts.
 */
export async function loadRunPolicies(dirs: PolicyDirs, io: Io): Promise<PolicyRule[]> {
  try {
    const { rules, warnings } = await loadPolicyFiles(dirs);
    for (const warning of warnings) io.stderr.write(`[WARNING] policy: ${warning}\n`);
    return rules;
  } catch (err) {
    if (err instanceof PolicyFileError) throw new ConfigError(`policy file error: ${err.message}`);
    throw err;
  }
}
