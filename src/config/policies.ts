import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import type { PolicyRule, PolicyTier } from '../core/policy/types';
import { SHELL_TOOL } from '../core/policy/types';
import { ConfigFileError } from './errors';

/**
 * Reads Gemini CLI's TOML policy files at the process edge (invariant 9). The rules go into the
 * workflow as data; a file that does not validate stops the CLI (exit code 52) with a message that
 * names the file, the rule and the problem.
 */

export interface PolicyDirs {
  /** `<workspace>/.durable-agent/policies`: workspace tier (3). */
  workspaceDir?: string;
  /** `$DURABLE_AGENT_HOME/policies`: user tier (4). */
  userDir?: string;
  /** System policy folder: admin tier (5). */
  adminDir?: string;
  /** Single files read at the user tier, like Gemini CLI's `--policy`. */
  extraFiles?: string[];
}

export interface LoadedPolicy {
  rules: PolicyRule[];
  /** Things ignored on purpose (unknown keys, safety checkers), one line each, naming the file. */
  warnings: string[];
}

export class PolicyFileError extends ConfigFileError {
  override name = 'PolicyFileError';

  constructor(
    readonly file: string,
    readonly ruleIndex: number | undefined,
    readonly problem: string,
  ) {
    super('policyFile', `${file}${ruleIndex === undefined ? '' : `: rule ${ruleIndex + 1}`}: ${problem}`);
  }
}

/** A non-empty string or non-empty list of them, as Gemini CLI accepts for names and prefixes. */
const oneOrMore = (error: string) => z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], { error });

const PRIORITY_RANGE = 'priority must be an integer from 0 to 999';
const PRIORITY_REQUIRED = 'priority is required: an integer from 0 to 999';

const ruleSchema = z.object({
  toolName: oneOrMore('toolName is required: a tool name or a list of them'),
  mcpName: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, 'mcpName must be an MCP server name')
    .optional(),
  argsPattern: z.string().min(1).optional(),
  commandPrefix: oneOrMore('commandPrefix must be a command prefix or a list of them').optional(),
  commandRegex: z.string().min(1).optional(),
  decision: z.enum(['allow', 'deny', 'ask_user'], { error: 'decision must be "allow", "deny" or "ask_user"' }),
  priority: z
    .number({ error: (issue) => (issue.input === undefined ? PRIORITY_REQUIRED : PRIORITY_RANGE) })
    .int({ error: PRIORITY_RANGE })
    .min(0, { error: PRIORITY_RANGE })
    .max(999, { error: PRIORITY_RANGE }),
  modes: z.array(z.enum(['default', 'auto_edit', 'autoEdit', 'yolo', 'plan'])).optional(),
  denyMessage: z.string().optional(),
  allowRedirection: z.boolean().optional(),
  interactive: z.boolean().optional(),
});

type RuleInput = z.infer<typeof ruleSchema>;

const KNOWN_KEYS = new Set(Object.keys(ruleSchema.shape));
/** Gemini CLI conditions this agent cannot check; ignoring one would widen the rule, so it is dropped. */
const UNSUPPORTED_CONDITIONS = ['subagent', 'toolAnnotations'];

/** Reads every `*.toml` of each tier's folder (a missing folder holds no rules), admin last. */
export async function loadPolicyFiles(dirs: PolicyDirs): Promise<LoadedPolicy> {
  const sources: { file: string; tier: PolicyTier }[] = [
    ...(await tomlFiles(dirs.workspaceDir)).map((file) => ({ file, tier: 'workspace' as const })),
    ...(await tomlFiles(dirs.userDir)).map((file) => ({ file, tier: 'user' as const })),
    ...(dirs.extraFiles ?? []).map((file) => ({ file, tier: 'user' as const })),
    ...(await tomlFiles(dirs.adminDir)).map((file) => ({ file, tier: 'admin' as const })),
  ];
  const result: LoadedPolicy = { rules: [], warnings: [] };
  for (const { file, tier } of sources) {
    const text = await fs.readFile(file, 'utf8').catch((err: Error) => {
      throw new PolicyFileError(file, undefined, `cannot be read: ${err.message}`);
    });
    const parsed = parsePolicyFile(text, file, tier);
    result.rules.push(...parsed.rules);
    result.warnings.push(...parsed.warnings);
  }
  return result;
}

async function tomlFiles(dir: string | undefined): Promise<string[]> {
  if (!dir) return [];
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && e.name.endsWith('.toml'))
      .map((e) => path.join(dir, e.name))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Parses one file's text; `file` names it in messages and rule sources. */
export function parsePolicyFile(text: string, file: string, tier: PolicyTier): LoadedPolicy {
  let document: Record<string, unknown>;
  try {
    document = parseToml(text);
  } catch (err) {
    throw new PolicyFileError(file, undefined, `invalid TOML: ${(err as Error).message.split('\n')[0]}`);
  }
  const warnings: string[] = [];
  for (const key of Object.keys(document)) {
    if (key === 'safety_checker') warnings.push(`${file}: [[safety_checker]] is not supported; ignored`);
    else if (key !== 'rule') warnings.push(`${file}: unknown table or key "${key}"; ignored`);
  }
  const tables = document.rule ?? [];
  if (!Array.isArray(tables)) throw new PolicyFileError(file, undefined, 'rules must be written as [[rule]] tables');
  const rules: PolicyRule[] = [];
  tables.forEach((table: unknown, index) => {
    const rule = toRule(table, file, index, tier, warnings);
    if (rule) rules.push(rule);
  });
  return { rules, warnings };
}

function toRule(
  table: unknown,
  file: string,
  index: number,
  tier: PolicyTier,
  warnings: string[],
): PolicyRule | undefined {
  const fail = (problem: string) => new PolicyFileError(file, index, problem);
  const parsed = ruleSchema.safeParse(table);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue.path.join('.');
    throw fail(issue.message.startsWith(key) ? issue.message : `${key}: ${issue.message}`);
  }
  checkConditions(parsed.data, fail);
  const where = `${file}: rule ${index + 1}`;
  const keys = Object.keys(table as object);
  const unsupported = keys.filter((key) => UNSUPPORTED_CONDITIONS.includes(key));
  if (unsupported.length > 0 || parsed.data.interactive === false) {
    const why =
      unsupported.length > 0
        ? `its condition ${unsupported.join(', ')} is not supported`
        : 'it applies to headless mode only';
    warnings.push(`${where}: skipped: ${why}`);
    return undefined;
  }
  keys
    .filter((key) => !KNOWN_KEYS.has(key) && !UNSUPPORTED_CONDITIONS.includes(key))
    .forEach((key) => warnings.push(`${where}: unknown key "${key}"; ignored`));
  return toPolicyRule(parsed.data, tier, where);
}

/** Gemini CLI's rule constraints that a schema cannot express: one narrowing, shell-only prefixes, valid regexes. */
function checkConditions(rule: RuleInput, fail: (problem: string) => Error): void {
  const narrowing = (['argsPattern', 'commandPrefix', 'commandRegex'] as const).filter(
    (key) => rule[key] !== undefined,
  );
  if (narrowing.length > 1) throw fail(`${narrowing.join(' and ')} cannot be combined: use only one`);
  const names = Array.isArray(rule.toolName) ? rule.toolName : [rule.toolName];
  const shellOnly = names.every((name) => name === SHELL_TOOL);
  if ((rule.commandPrefix !== undefined || rule.commandRegex !== undefined) && !shellOnly) {
    throw fail(`commandPrefix and commandRegex require toolName = "${SHELL_TOOL}"`);
  }
  for (const key of ['argsPattern', 'commandRegex'] as const) {
    const source = rule[key];
    if (source === undefined) continue;
    try {
      new RegExp(source);
    } catch (err) {
      throw fail(`${key} is not a valid regular expression: ${(err as Error).message}`);
    }
  }
}

function toPolicyRule(input: RuleInput, tier: PolicyTier, source: string): PolicyRule {
  const { toolName, argsPattern, commandPrefix, commandRegex, decision, priority, modes } = input;
  const rule: PolicyRule = { toolName: scopedToServer(toolName, input.mcpName), decision, priority, tier, source };
  Object.assign(rule, definedOnly({ argsPattern, commandPrefix, commandRegex }));
  Object.assign(rule, definedOnly({ denyMessage: input.denyMessage, allowRedirection: input.allowRedirection }));
  if (modes) rule.modes = [...new Set(modes.map((mode) => (mode === 'autoEdit' ? 'auto_edit' : mode)))];
  return rule;
}

/** `mcpName` narrows the rule to one server's tools, under the names the model sees (`*`: all of them). */
function scopedToServer(toolName: string | string[], server: string | undefined): string | string[] {
  if (server === undefined) return toolName;
  const scope = (name: string) => `mcp_${server}_${name}`;
  return Array.isArray(toolName) ? toolName.map(scope) : scope(toolName);
}

function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}
