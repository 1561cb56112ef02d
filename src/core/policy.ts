import type { ApprovalMode } from './types';
import type { ToolKind } from '../tools/types';

export type PolicyDecision = 'allow' | 'deny' | 'ask_user';

export interface Decision {
  decision: PolicyDecision;
  /** Told to the model when the decision is `deny`. */
  message?: string;
}

/**
 * Gemini CLI's built-in defaults by approval mode: read-only tools run; `yolo` runs everything;
 * `auto_edit` also runs edits; `plan` refuses anything that changes the workspace; otherwise a
 * person is asked. A pure function of tool and mode, called from the workflow.
 */
export function defaultDecision(tool: { name: string; kind: ToolKind }, mode: ApprovalMode): Decision {
  const readOnly = tool.kind === 'read' || tool.kind === 'search';
  if (mode === 'yolo' || readOnly) return { decision: 'allow' };
  if (mode === 'plan') {
    return { decision: 'deny', message: `${tool.name} is not available in plan mode: only read-only tools run until the plan is approved.` };
  }
  if (mode === 'auto_edit' && tool.kind === 'edit') return { decision: 'allow' };
  return { decision: 'ask_user' };
}
