import { toolsWhere } from '../../tools/index';
import { allowedByDefault, asksByDefault, isReadOnly, MUTATOR_KINDS } from '../../tools/facts';
import type { PolicyRule } from './types';

/**
 * The built-in tier-1 rules, Gemini CLI's defaults for this agent's tools: read-only tools run,
 * mutating tools ask, and so does `activate_skill` (a skill's instructions and files enter the
 * conversation), `auto_edit` also runs edits (except under `.durable-agent/`), `yolo` runs
 * everything, `plan` runs read-only tools and writes Markdown plans in the plans folder only. Every
 * other tier outranks these.
 */

/**
 * The defaults' tool lists, derived from each tool's declared facts (tools/facts): a rule here names
 * a tool only where it is that tool's own rule (plan mode, `ask_user`, `invoke_agent`).
 * `read_tool_output` only reads the transcript store, so it runs in every mode, plan mode included.
 */
export const READ_ONLY_TOOLS = toolsWhere((tool) => isReadOnly(tool) && allowedByDefault(tool));

/** Tools that change only the prompt's own state (its todos, its chapters, a sub-agent's ending). */
export const PROMPT_ONLY_TOOLS = toolsWhere((tool) => !isReadOnly(tool) && allowedByDefault(tool));

/** Tools that write files; `proceed_always` narrows them to one `file_path`. */
export const EDIT_TOOLS = toolsWhere((tool) => tool.editsFiles === true);

/** Tools that ask a person in the default mode: mutators, fetches, and tools that bring outside content in. */
const ASKING_TOOLS = toolsWhere(asksByDefault);

/** Tools that ask without changing anything (`web_fetch`, `activate_skill`): they ask in plan mode too. */
const ASKING_READERS = toolsWhere((tool) => asksByDefault(tool) && !MUTATOR_KINDS.includes(tool.kind));

/** auto_edit runs the file edits and the fetches, as Gemini CLI's autoEdit does. */
const AUTO_EDIT_TOOLS = toolsWhere((tool) => tool.editsFiles === true || tool.kind === 'fetch');

const PLAN_TOOLS = toolsWhere((tool) => tool.kind === 'plan');

type RuleFields = Omit<PolicyRule, 'tier' | 'source'>;

/**
 * `plansDir` is workspace-relative (`.durable-agent/plans`) and only names the folder in messages:
 * the plan-file rule is marked `planFilesOnly` and `evaluatePolicy` checks `file_path` against the
 * plans folder of its context, because relative, absolute and `..` spellings of one path must be
 * normalised before they are compared, which a regular expression cannot do.
 */
export function defaultPolicy(plansDir: string, readOnly: readonly string[] = READ_ONLY_TOOLS): PolicyRule[] {
  const folder = plansDir.replace(/\/+$/, '');
  const named = Object.entries({ ...generalRules(readOnly), ...planModeRules(folder) });
  return named.map(([name, fields]) => ({ ...fields, tier: 'default', source: `default policy: ${name}` }));
}

function generalRules(readOnly: readonly string[]): Record<string, RuleFields> {
  return {
    'read-only tools': { toolName: [...readOnly], decision: 'allow', priority: 50 },
    'prompt-only tools': { toolName: [...PROMPT_ONLY_TOOLS], decision: 'allow', priority: 50 },
    'mutating tools': { toolName: [...ASKING_TOOLS], decision: 'ask_user', priority: 10 },
    // save_memory is left out: it writes the user-level GEMINI.md that every later prompt loads.
    auto_edit: {
      toolName: [...AUTO_EDIT_TOOLS],
      decision: 'allow',
      priority: 15,
      modes: ['auto_edit'],
    },
    // The agent's own configuration (policies, hooks, agents) is read by later prompts: a write
    // there asks even in auto_edit. Plan mode already refuses it (only plan files are written).
    'agent configuration edits': {
      toolName: EDIT_TOOLS,
      decision: 'ask_user',
      priority: 80,
      modes: ['default', 'auto_edit'],
      configFilesOnly: true,
    },
    yolo: { toolName: '*', decision: 'allow', priority: 998, modes: ['yolo'], allowRedirection: true },
    'yolo plan tools': {
      toolName: PLAN_TOOLS,
      decision: 'deny',
      priority: 999,
      modes: ['yolo'],
      denyMessage: 'Plan mode is not available in yolo mode.',
    },
    enter_plan_mode: { toolName: 'enter_plan_mode', decision: 'ask_user', priority: 50 },
    // The question is itself the person's turn: it waits for an answer, not for an approval, in every mode.
    ask_user: { toolName: 'ask_user', decision: 'allow', priority: 50 },
    // A sub-agent's own calls are decided by the policy inside its child workflow.
    invoke_agent: {
      toolName: 'invoke_agent',
      decision: 'allow',
      priority: 50,
      modes: ['default', 'auto_edit', 'yolo'],
    },
    'exit_plan_mode outside plan mode': {
      toolName: 'exit_plan_mode',
      decision: 'deny',
      priority: 50,
      denyMessage: 'Not in plan mode.',
    },
  };
}

/** Rules for `plan` mode only. */
function planModeRules(folder: string): Record<string, RuleFields> {
  const plan = { modes: ['plan' as const] };
  return {
    'plan mode': {
      ...plan,
      toolName: '*',
      decision: 'deny',
      priority: 40,
      denyMessage:
        'It is not available in plan mode: until the plan is approved, only read-only tools run ' +
        `and only Markdown plan files under ${folder}/ may be written.`,
    },
    'plan mode readers that ask': { ...plan, toolName: [...ASKING_READERS], decision: 'ask_user', priority: 50 },
    'plan mode investigator': {
      ...plan,
      toolName: 'invoke_agent',
      argsPattern: '"agent_name":"codebase_investigator"',
      decision: 'allow',
      priority: 50,
    },
    'plan files': { ...plan, toolName: EDIT_TOOLS, decision: 'allow', priority: 70, planFilesOnly: true },
    'plan mode edits': {
      ...plan,
      toolName: EDIT_TOOLS,
      decision: 'deny',
      priority: 65,
      denyMessage: `In plan mode only Markdown (.md) plan files under ${folder}/ may be written.`,
    },
    'enter_plan_mode in plan mode': {
      ...plan,
      toolName: 'enter_plan_mode',
      decision: 'deny',
      priority: 70,
      denyMessage: 'Already in plan mode.',
    },
    exit_plan_mode: { ...plan, toolName: 'exit_plan_mode', decision: 'ask_user', priority: 70 },
  };
}

/**
 * Whether `filePath` (relative to the workspace root, or absolute inside it) names a `.md` file
 * inside `plansDir` (workspace-relative). Pure posix string code: `.` and `..` are resolved, and a
 * path that climbs out of the workspace or the plans folder is not a plan file. Symlinks are the
 * tools' concern (invariant 6).
 */
export function isPlanFile(filePath: unknown, plansDir: string, workspaceRoot: string): boolean {
  if (typeof filePath !== 'string') return false;
  const file = workspaceSegments(filePath, workspaceRoot);
  const dir = workspaceSegments(plansDir, workspaceRoot);
  if (!file || !dir || file.length <= dir.length) return false;
  return startsWith(file, dir) && /\.md$/.test(file[file.length - 1]);
}

/** Path segments relative to the workspace root, or undefined when the path leaves it. */
function workspaceSegments(path: string, workspaceRoot: string): string[] | undefined {
  const segments = resolveSegments(path);
  if (!segments || !path.startsWith('/')) return segments;
  const root = resolveSegments(workspaceRoot);
  return root && startsWith(segments, root) ? segments.slice(root.length) : undefined;
}

function resolveSegments(path: string): string[] | undefined {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') out.push(segment);
    else if (out.pop() === undefined) return undefined;
  }
  return out;
}

function startsWith(path: string[], prefix: string[]): boolean {
  return prefix.every((segment, k) => path[k] === segment);
}
