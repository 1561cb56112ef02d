/**
 * What a tool is, as the rest of the agent needs to know it: each tool declares these facts in its
 * own file, and the policy's defaults, plan mode, waves, local reads and approval previews are
 * derived from them (core/policy/defaults, the workflow's call handling). No other module keeps a
 * list of tool names for any of these purposes.
 */

/** Gemini CLI's `Kind` of a tool, the same set of values (0.61.0). */
export type ToolKind =
  | 'read'
  | 'edit'
  | 'delete'
  | 'move'
  | 'search'
  | 'execute'
  | 'think'
  | 'agent'
  | 'fetch'
  | 'communicate'
  | 'plan'
  | 'switch_mode'
  | 'other';

/** Gemini CLI's read-only kinds: a call of one changes nothing, so it may run beside others and be retried. */
export const READ_ONLY_KINDS: readonly ToolKind[] = ['read', 'search', 'fetch'];

/** Gemini CLI's mutator kinds: a call changes files or runs programs. */
export const MUTATOR_KINDS: readonly ToolKind[] = ['edit', 'delete', 'move', 'execute'];

/** Where an activity tool acts; a workflow tool acts on the prompt itself. */
export type ToolReach = 'workspace' | 'processes' | 'network' | 'transcript' | 'user-memory';

export interface ToolFacts {
  kind: ToolKind;
  /**
   * Writes the workspace file its `file_path` argument names: approval shows the diff,
   * `proceed_always` narrows to that file, auto_edit runs it, plan mode lets it write plans only.
   */
  editsFiles?: true;
  /**
   * Changes nothing but the prompt's own state (its todo list, its chapters, the end of a
   * sub-agent's run): the default policy runs it without asking, in every mode.
   */
  promptOnly?: true;
  /**
   * Brings outside content into the conversation without changing anything (a skill's files): the
   * default policy asks, in plan mode too, as it does for the fetch kind.
   */
  asks?: true;
  /**
   * Sends model requests of its own while it runs (the web tools' grounded calls): at most `calls` of them, each
   * carrying the call's arguments and up to `contentChars` characters of fetched content. A prompt with a spending
   * limit checks their worst case before the call runs, as it checks its own requests.
   */
  modelRequests?: { calls: number; contentChars: number };
}

/** Read-only, as Gemini CLI's `isReadOnly`: decided by the kind alone. */
export function isReadOnly(tool: Pick<ToolFacts, 'kind'>): boolean {
  return READ_ONLY_KINDS.includes(tool.kind);
}

/**
 * Runs without asking in the default policy: read-only tools, except those that fetch from the
 * network (Gemini CLI asks for `web_fetch`), and tools that change only the prompt.
 */
export function allowedByDefault(tool: ToolFacts): boolean {
  return (isReadOnly(tool) && tool.kind !== 'fetch') || tool.promptOnly === true;
}

/** Asks a person in the default policy: mutators, the fetch kind and tools that say they ask. */
export function asksByDefault(tool: ToolFacts): boolean {
  return MUTATOR_KINDS.includes(tool.kind) || tool.kind === 'fetch' || tool.asks === true;
}

/**
 * May change files in the workspace, so a checkpoint is taken before it runs: edits, deletes, moves and commands
 * (a shell command can change anything), and sub-agents, whose calls include those. Tools that write only the
 * user's memory or the prompt's own state do not count.
 */
export function mayChangeWorkspace(tool: ToolFacts & { reach?: ToolReach }): boolean {
  if (tool.reach === 'user-memory' || tool.reach === 'transcript' || tool.promptOnly) return false;
  return MUTATOR_KINDS.includes(tool.kind) || tool.kind === 'agent';
}

/** What an approval shows: the diff of the file (`edit`), the command (`exec`), or the arguments (`info`). */
export function confirmationOf(tool: ToolFacts): 'edit' | 'exec' | 'info' {
  if (tool.editsFiles) return 'edit';
  return tool.kind === 'execute' ? 'exec' : 'info';
}
