import { deprecatePatch, patched } from '@temporalio/workflow';

/**
 * One replay patch: `id` is what `patched()` records in a run's history (a `core_patch` marker), so it
 * never changes; `guards` says what the new branch does and what histories recorded before it did;
 * `since` is the day the patch landed. Retiring one is a two-step deploy that `durable-agent
 * replay-check` says when to take (README: "Retiring a replay patch").
 */
export interface Patch {
  readonly id: string;
  readonly guards: string;
  readonly since: string;
  /** Set once the old branch is gone and the check is `deprecate(PATCHES.x)`: the call is next to go. */
  readonly retiring?: true;
}

/**
 * Every replay patch of the workflows, in the order they landed. Workflow code checks one only through
 * `isPatched(PATCHES.x)` (or `deprecate(PATCHES.x)` while retiring it); a test fails on a `patched('…')`
 * written anywhere else.
 */
export const PATCHES = {
  localReadTools: {
    id: 'local-read-tools',
    since: '2026-11-22',
    guards: 'read_file, list_directory, glob and grep_search run as local activities (before: ordinary activities)',
  },
  projectMemory: {
    id: 'project-memory',
    since: '2026-11-24',
    guards: "a prompt loads the project's GEMINI.md files once, in an activity at its start",
  },
  invalidStream: {
    id: 'invalid-stream-continue',
    since: '2026-11-24',
    guards: 'an answer still invalid after every attempt gets one "please continue" turn instead of ending the prompt',
  },
  afterAgentOnEveryEnding: {
    id: 'after-agent-on-every-ending',
    since: '2026-11-24',
    guards: "AfterAgent hooks fire however a prompt ends (before: only after the model's last answer)",
  },
  atPaths: {
    id: 'at-path-expansion',
    since: '2026-11-24',
    guards: '@path references in a prompt are read by an activity before the first request',
  },
  beforeToolFirst: {
    id: 'before-tool-before-approval',
    since: '2026-11-24',
    guards: 'BeforeTool hooks run before the approval step (before: after it)',
  },
  preCompressEachCheck: {
    id: 'pre-compress-each-check',
    since: '2026-11-24',
    guards: 'PreCompress (auto) fires at every compression check of a running conversation',
  },
  agentResult: {
    id: 'subagent-result-resolved',
    since: '2026-11-24',
    guards: "a sub-agent's long complete_task output is resolved from the store before it reaches the parent",
  },
  fullArgs: {
    id: 'policy-full-args',
    since: '2026-11-24',
    guards: 'calls whose arguments hold blob markers are judged on their full arguments, read by an activity',
  },
  readToolOutputReadOnly: {
    id: 'read-tool-output-read-only',
    since: '2026-11-24',
    guards: 'read_tool_output is allowed as read-only (before: asked like any unlisted tool)',
  },
  mcpDiscovery: {
    id: 'mcp-discovery',
    since: '2026-11-24',
    guards: 'MCP servers from settings are discovered by an activity at the start of each run',
  },
  freshCallIds: {
    id: 'fresh-call-ids',
    since: '2026-11-24',
    guards: 'a reused call id gets a fresh record and its own decision',
  },
  subagentLoop: {
    id: 'subagent-compress-and-fallback',
    since: '2026-11-24',
    guards: "sub-agents compress, route and fall back between models with the prompt's machinery",
  },
  alwaysAllowsSubcommand: {
    id: 'always-allows-subcommand',
    since: '2026-11-24',
    guards: '"allow always" on a shell command allows that command and its first argument (before: the command)',
  },
  editFixer: {
    id: 'edit-fixer',
    since: '2026-11-24',
    guards: 'a replace that found no occurrence gets one edit fixer call',
  },
  statusAtEnd: {
    id: 'status-at-end',
    since: '2026-11-27',
    guards: 'DurableAgentStatus names how a prompt ended (before: it stayed "running")',
  },
  preCompressFirstCheck: {
    id: 'pre-compress-first-check',
    since: '2026-11-27',
    guards: "PreCompress (auto) fires at the check before a conversation's first request too",
  },
  workspaceCheckpoints: {
    id: 'workspace-checkpoints',
    since: '2026-11-28',
    guards: 'a checkpoint of the workspace before each call that may change files and at the end of its turn',
  },
  cancelledSpendToSession: {
    id: 'cancelled-spend-to-session',
    since: '2026-11-28',
    guards: "a session's prompt with a spending limit, cancelled on its own, signals its spend to the session",
  },
  subagentCostPause: {
    id: 'subagent-cost-pause',
    since: '2026-11-28',
    guards: 'a sub-agent at its spending limit pauses and tells its parent (before: it stopped)',
  },
  toolSpendCheck: {
    id: 'tool-spend-check',
    since: '2026-11-28',
    guards:
      "a prompt with a spending limit checks a web tool's or the edit fixer's model requests before they are sent",
  },
} as const satisfies Record<string, Patch>;

/** Whether this run takes the patch's new branch (`patched` from the Temporal SDK, by the register's id). */
export function isPatched(patch: Patch): boolean {
  return patched(patch.id);
}

/**
 * The second step of retiring a patch: the old branch is gone, and runs that recorded the marker still
 * replay. Put it where `isPatched` was once `replay-check` says no open run lacks the marker.
 */
export function deprecate(patch: Patch): void {
  deprecatePatch(patch.id);
}
