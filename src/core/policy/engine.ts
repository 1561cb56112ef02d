import type { ApprovalMode } from '../types';
import { isAgentConfigPath } from './config-paths';
import { EDIT_TOOLS, isPlanFile } from './defaults';
import { commandPrefixes, rootCommands, splitShellCommand, type ShellCommand } from './shell-split';
import { SHELL_TOOL, type PolicyDecision, type PolicyRule, type PolicySet, type PolicyVerdict } from './types';

/**
 * Gemini CLI's policy engine as a pure function of rules, call and mode, called from the workflow
 * (so it stays deterministic). Rules are ordered by effective priority (tier + priority / 1000) and the first
 * one that matches decides. A `deny` is final: no approval can override it (invariant 6).
 */

export interface PolicyCall {
  name: string;
  args: Record<string, unknown>;
}

export interface PolicyContext {
  mode: ApprovalMode;
  /** Workspace-relative plans folder, e.g. `.durable-agent/plans`. */
  plansDir: string;
  /** Absolute workspace root, for absolute `file_path` arguments. */
  workspaceRoot: string;
}

/** Tier weights ×1000, so that ordering is integer arithmetic. */
const TIER_WEIGHT: Record<PolicyRule['tier'], number> = {
  default: 1000,
  workspace: 3000,
  session: 3950,
  user: 4000,
  admin: 5000,
};

/** On equal effective priority the more restrictive decision comes first. */
const STRICTNESS: Record<PolicyDecision, number> = { allow: 0, ask_user: 1, deny: 2 };

/** Modes from least to most permissive; `proceed_always` holds in its mode and those after it. */
const PERMISSIVENESS: ApprovalMode[] = ['plan', 'default', 'auto_edit', 'yolo'];

/** Gemini CLI's old names, which rules may still use. */
const LEGACY_NAMES: Record<string, string[]> = { grep_search: ['search_file_content'] };

/** `tier + priority / 1000`: default 1, workspace 3, session 3.95, user 4, admin 5. */
export function effectivePriority(rule: PolicyRule): number {
  return (TIER_WEIGHT[rule.tier] + rule.priority) / 1000;
}

export function evaluatePolicy(policy: PolicySet, call: PolicyCall, ctx: PolicyContext): PolicyVerdict {
  const rules = [...policy.rules].sort(
    (a, b) =>
      TIER_WEIGHT[b.tier] + b.priority - (TIER_WEIGHT[a.tier] + a.priority) ||
      STRICTNESS[b.decision] - STRICTNESS[a.decision],
  );
  const command = call.args.command;
  if (call.name === SHELL_TOOL && typeof command === 'string') return evaluateShell(rules, call, command, ctx);
  return verdictOf(firstMatch(rules, call, ctx), ctx);
}

/**
 * How `proceed_always` narrows a shell command: `subcommand` allows each of its commands with the
 * same first argument (`git status` → `git status ...`, not `git push`); `root`, Gemini CLI's way
 * and ours before, each command name (`git status` → every `git ...`). Kept for recorded histories.
 */
export type ShellNarrowing = 'subcommand' | 'root';

/**
 * The allow rule a `proceed_always` approval adds for the rest of the session, or undefined when
 * the call cannot be narrowed safely (a shell command that does not parse, an edit without a
 * `file_path`). Shell: see `ShellNarrowing`; every command of a compound line gets its prefix, so
 * `git status && npm test` allows `npm test -- x; git status -s` but not `rm`; edit tools: that
 * exact `file_path` spelling; other tools: the tool.
 */
export function sessionAllowRule(
  call: PolicyCall,
  mode: ApprovalMode,
  narrowing: ShellNarrowing = 'subcommand',
): PolicyRule | undefined {
  const base: PolicyRule = {
    toolName: call.name,
    decision: 'allow',
    priority: 0,
    tier: 'session',
    modes: PERMISSIVENESS.slice(PERMISSIVENESS.indexOf(mode)),
    source: `session: always allow ${call.name}`,
  };
  if (call.name === SHELL_TOOL) {
    const command = typeof call.args.command === 'string' ? call.args.command : '';
    const roots = narrowing === 'root' ? rootCommands(command) : commandPrefixes(command);
    return roots.length > 0
      ? { ...base, commandPrefix: roots, source: `${base.source} ${roots.join(', ')}` }
      : undefined;
  }
  if (EDIT_TOOLS.includes(call.name)) {
    const path = call.args.file_path;
    if (typeof path !== 'string') return undefined;
    const argsPattern = `\\x00"file_path":${escapeRegex(JSON.stringify(path))}\\x00`;
    return { ...base, argsPattern, source: `${base.source} ${path}` };
  }
  return base;
}

/**
 * The text `argsPattern` is tested against: JSON with keys sorted at every level, and each
 * top-level `"key":value` pair framed by NUL characters, so a pattern can anchor on a whole pair:
 * `{"b":[1],"a":"x"}` → `{\0"a":"x"\0,\0"b":[1]\0}`; `\x00"file_path":"a\.md"\x00` matches
 * exactly that path. Strings are JSON-escaped (a quote in a command is `\"`).
 */
export function stableArgsJson(args: Record<string, unknown>): string {
  const keys = Object.keys(args)
    .filter((k) => args[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `\0${JSON.stringify(k)}:${stableJson(args[k])}\0`).join(',')}}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : stableJson(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object)
      .filter((k) => object[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(object[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A shell call is allowed only when every command in it is: the whole text and then each part
 * (as its own call, `{ ...args, command: part }`) go through the rules; any deny denies, any ask
 * asks. An unparseable command is never allowed on the strength of a narrowed rule.
 */
function evaluateShell(rules: PolicyRule[], call: PolicyCall, command: string, ctx: PolicyContext): PolicyVerdict {
  const whole = firstMatch(rules, call, ctx);
  if (whole?.decision === 'deny') return denial(whole);
  const split = splitShellCommand(command);
  if (!split.ok) return unparseable(rules, whole, split.reason, ctx);
  if (split.commands.length === 0) return verdictOf(whole, ctx);
  let verdict: PolicyVerdict | undefined;
  for (const part of split.commands) {
    const partVerdict = evaluatePart(rules, call, part, ctx);
    if (partVerdict.decision === 'deny') return partVerdict;
    if (!verdict || STRICTNESS[partVerdict.decision] > STRICTNESS[verdict.decision]) verdict = partVerdict;
  }
  return verdict ?? { decision: 'ask_user' };
}

/**
 * A command that cannot be split asks a person, except in yolo mode, where it runs unless a
 * narrowed rule is involved: the one that matched the whole text (Gemini CLI), or a shell deny
 * rule ranked above it that might have matched one of its parts.
 */
function unparseable(
  rules: PolicyRule[],
  whole: PolicyRule | undefined,
  reason: string,
  ctx: PolicyContext,
): PolicyVerdict {
  if (ctx.mode !== 'yolo') return { decision: 'ask_user' };
  const above = whole ? rules.slice(0, rules.indexOf(whole)) : rules;
  const blocking =
    whole && isNarrowed(whole)
      ? whole
      : above.find((rule) => rule.decision === 'deny' && isNarrowed(rule) && appliesToShell(rule, ctx));
  if (!blocking) return { decision: 'allow', ...sourceOf(whole) };
  // Not the rule's denyMessage: the rule may be an allow, or a deny that this command may not meet.
  const why = `The command cannot be parsed (${reason}), so the rule "${blocking.source ?? 'unnamed'}" cannot be checked.`;
  return { decision: 'deny', message: `${DENIED} ${why}`, ...sourceOf(blocking) };
}

function appliesToShell(rule: PolicyRule, ctx: PolicyContext): boolean {
  return inMode(rule, ctx.mode) && toList(rule.toolName).some((pattern) => nameMatches(pattern, SHELL_TOOL));
}

function inMode(rule: PolicyRule, mode: ApprovalMode): boolean {
  return !rule.modes || rule.modes.length === 0 || rule.modes.includes(mode);
}

/**
 * One simple command, checked as written and, when they differ, as `normalized` (no env
 * assignments, no path, no quotes in the name), so `/bin/rm` or `FOO=1 rm` still meet a deny on
 * `rm`; the stricter verdict wins.
 */
function evaluatePart(rules: PolicyRule[], call: PolicyCall, part: ShellCommand, ctx: PolicyContext): PolicyVerdict {
  const forms = part.normalized === part.text ? [part.text] : [part.text, part.normalized];
  let verdict: PolicyVerdict | undefined;
  for (const text of forms) {
    const rule = firstMatch(rules, { name: call.name, args: { ...call.args, command: text } }, ctx);
    let next = rule?.decision === 'deny' ? denial(rule) : verdictOf(rule, ctx);
    const redirectionAllowed = rule?.allowRedirection || ctx.mode === 'auto_edit' || ctx.mode === 'yolo';
    if (next.decision === 'allow' && part.hasRedirection && !redirectionAllowed)
      next = { ...next, decision: 'ask_user' };
    if (!verdict || STRICTNESS[next.decision] > STRICTNESS[verdict.decision]) verdict = next;
  }
  return verdict ?? { decision: 'ask_user' };
}

function verdictOf(rule: PolicyRule | undefined, ctx: PolicyContext): PolicyVerdict {
  if (!rule) return { decision: ctx.mode === 'yolo' ? 'allow' : 'ask_user' };
  if (rule.decision === 'deny') return denial(rule);
  return { decision: rule.decision, ...sourceOf(rule) };
}

/** What the model is told of a deny: Gemini CLI's exact sentence, then the rule's `denyMessage` if it has one. */
export const DENIED = 'Tool execution denied by policy.';

function denial(rule: PolicyRule): PolicyVerdict {
  const message = rule.denyMessage ? `${DENIED} ${rule.denyMessage}` : DENIED;
  return { decision: 'deny', message, ...sourceOf(rule) };
}

function sourceOf(rule: PolicyRule | undefined): { ruleSource?: string } {
  return rule?.source === undefined ? {} : { ruleSource: rule.source };
}

/**
 * The first matching rule, except that a `session` rule (an approval) never beats a deny rule
 * that also matches, whatever its priority: approvals cannot override a deny (invariant 6).
 */
function firstMatch(rules: PolicyRule[], call: PolicyCall, ctx: PolicyContext): PolicyRule | undefined {
  let json: string | undefined;
  const argsJson = () => (json ??= stableArgsJson(call.args));
  const rule = rules.find((r) => matches(r, call, ctx, argsJson));
  if (rule?.tier !== 'session') return rule;
  return rules.find((r) => r.tier !== 'session' && r.decision === 'deny' && matches(r, call, ctx, argsJson)) ?? rule;
}

function matches(rule: PolicyRule, call: PolicyCall, ctx: PolicyContext, argsJson: () => string): boolean {
  if (!inMode(rule, ctx.mode)) return false;
  const names = [call.name, ...(LEGACY_NAMES[call.name] ?? [])];
  if (!toList(rule.toolName).some((pattern) => names.some((name) => nameMatches(pattern, name)))) return false;
  if (rule.planFilesOnly && !isPlanFile(call.args.file_path, ctx.plansDir, ctx.workspaceRoot)) return false;
  if (rule.configFilesOnly && !isAgentConfigPath(call.args.file_path, ctx.workspaceRoot)) return false;
  if (rule.commandPrefix !== undefined || rule.commandRegex !== undefined) {
    const command = call.args.command;
    if (typeof command !== 'string') return false;
    const text = command.trimStart();
    if (rule.commandPrefix !== undefined && !toList(rule.commandPrefix).some((p) => prefixMatches(p, text)))
      return false;
    if (rule.commandRegex !== undefined && !regexMatches(rule, `^(?:${rule.commandRegex})`, text)) return false;
  }
  return rule.argsPattern === undefined || regexMatches(rule, rule.argsPattern, argsJson());
}

function nameMatches(pattern: string, name: string): boolean {
  if (pattern === '*' || pattern === name) return true;
  return pattern.includes('*') && new RegExp(`^${pattern.split('*').map(escapeRegex).join('.*')}$`).test(name);
}

/** `git status` matches `git status` and `git status -s`, not `git statusx`. */
function prefixMatches(prefix: string, command: string): boolean {
  if (!command.startsWith(prefix)) return false;
  return command.length === prefix.length || /\s/.test(prefix[prefix.length - 1]) || /\s/.test(command[prefix.length]);
}

const compiled = new Map<string, RegExp | null>();

/** A pattern that does not compile (the loader refuses them) fails closed: it matches only for deny. */
function regexMatches(rule: PolicyRule, source: string, text: string): boolean {
  if (!compiled.has(source)) {
    try {
      compiled.set(source, new RegExp(source));
    } catch {
      compiled.set(source, null);
    }
  }
  const regex = compiled.get(source);
  return regex ? regex.test(text) : rule.decision === 'deny';
}

function isNarrowed(rule: PolicyRule): boolean {
  return rule.argsPattern !== undefined || rule.commandPrefix !== undefined || rule.commandRegex !== undefined;
}

function toList(value: string | string[]): string[] {
  return Array.isArray(value) ? value : [value];
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
