import type { SkillListing } from '../skills';
import type { ApprovalMode } from '../types';

/**
 * Gemini CLI's two switches over the system prompt, resolved at the CLI edge into absolute paths:
 * `replace` (`GEMINI_SYSTEM_MD`) is a file whose text is used instead of the built prompt, `write`
 * (`GEMINI_WRITE_SYSTEM_MD`) is where the prompt each request uses is written, to read it.
 */
export interface SystemMdPaths {
  replace?: string;
  write?: string;
}

/** What of a prompt's state shapes its system prompt; carried in the model request's frame. */
export interface PromptShape {
  /** The approval mode, when it changes the prompt (`plan`, `yolo`). */
  mode?: ApprovalMode;
  /** Nobody follows the run as it happens: the prompt says so. */
  unattended?: boolean;
  systemMd?: SystemMdPaths;
  /** The Agent Skills the prompt found, listed in the prompt when `activate_skill` is offered. */
  skills?: SkillListing[];
}

/** The fields that are set, and only those: a frame without them serialises as it did before they existed. */
export function promptShape(shape: PromptShape): PromptShape {
  return {
    ...(shape.mode === 'plan' || shape.mode === 'yolo' ? { mode: shape.mode } : {}),
    ...(shape.unattended ? { unattended: true } : {}),
    ...(shape.systemMd ? { systemMd: shape.systemMd } : {}),
    ...(shape.skills && shape.skills.length > 0 ? { skills: shape.skills } : {}),
  };
}
