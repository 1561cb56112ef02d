import type { ApprovalMode } from '../types';

/**
 * Policy data. Every type here is plain JSON: rules are read from TOML at the process edge, made
 * from `proceed_always` approvals, and passed into the workflow as input.
 */

export type PolicyDecision = 'allow' | 'deny' | 'ask_user';

/** Where a rule comes from; a higher tier always beats a lower one, whatever the priorities. */
export type PolicyTier = 'default' | 'workspace' | 'user' | 'admin';

export interface PolicyRule {
  /** Tool name(s); `*` matches every tool and a `*` inside a name is a wildcard (`mcp_*`). */
  toolName: string | string[];
  /** Regular expression source tested against `stableArgsJson(args)` (see engine.ts). */
  argsPattern?: string;
  /**
   * `run_shell_command` only: matches when the command equals a prefix or continues after it with
   * whitespace, so `git` matches `git log` but not `gitx`.
   */
  commandPrefix?: string | string[];
  /** `run_shell_command` only: regular expression source, anchored at the start of the command. */
  commandRegex?: string;
  decision: PolicyDecision;
  /** 0..999 within the tier. */
  priority: number;
  /** Approval modes the rule applies in; absent or empty means every mode. */
  modes?: ApprovalMode[];
  /** Told to the model, after the standard denial text, when this rule denies a call. */
  denyMessage?: string;
  /** Keeps an `allow` for a shell command that redirects input or output. */
  allowRedirection?: boolean;
  /**
   * Built-in only: matches `write_file`/`replace` calls whose `file_path` is a `.md` file inside
   * the plans folder given to `evaluatePolicy` (paths cannot be normalised by a regex).
   */
  planFilesOnly?: boolean;
  /**
   * Built-in only: matches `write_file`/`replace` calls whose `file_path` lies inside a
   * `.durable-agent` folder (see config-paths.ts).
   */
  configFilesOnly?: boolean;
  /** `session` rules come from `proceed_always` (effective priority 3.95). */
  tier: PolicyTier | 'session';
  /** Where the rule was written, for messages: `file.toml: rule 2`, `default policy: yolo`. */
  source?: string;
}

export interface PolicySet {
  rules: PolicyRule[];
}

export interface PolicyVerdict {
  decision: PolicyDecision;
  /** For `deny`: the text the model is told. */
  message?: string;
  /** `source` of the rule that decided, when a rule did. */
  ruleSource?: string;
}

/** The name of the one tool whose commands are split and checked part by part. */
export const SHELL_TOOL = 'run_shell_command';
