import type { SkillListing } from '../skills';
import type { ApprovalMode } from '../types';

/** What the system prompt is built from: plain data, so the sections are pure functions of it. */
export interface PromptContext {
  workspace: string;
  platform: string;
  date: string;
  toolNames: string[];
  /** A sub-agent's own prompt: it replaces the main agent's identity and workflows. */
  preamble?: string;
  /** The project context (GEMINI.md files), appended after a rule. */
  memory?: string;
  /** The prompt's approval mode; `plan` swaps the engineering workflow for the planning one. */
  mode?: ApprovalMode;
  /** Nobody follows the run as it happens: questions would go unanswered. */
  unattended?: boolean;
  /** The workspace is inside a git repository (the git section is added). */
  gitRepo?: boolean;
  /** The Agent Skills offered through `activate_skill`. */
  skills?: SkillListing[];
}

/** The tool is offered in this request. */
export function offers(ctx: PromptContext, tool: string): boolean {
  return ctx.toolNames.includes(tool);
}

/** The list as `a`, `b` and `c`, for tool names in prose. */
export function named(tools: string[]): string {
  const quoted = tools.map((t) => `\`${t}\``);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}
