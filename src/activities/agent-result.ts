import { completeTaskOutputText } from '../core/agents/complete-task';
import { subagentResultText } from '../core/agents/invoke-agent';
import type { SubagentTerminateReason } from '../core/agents/recovery';
import { resolveBlobMarkers } from '../store/blobs';
import type { TranscriptStore } from '../store/types';

export interface AgentResultInput {
  agentName: string;
  reason: SubagentTerminateReason;
  /** The accepted complete_task arguments, long strings still blob markers. */
  output: Record<string, unknown>;
}

export interface AgentResultOutput {
  /** Store reference of the function response (`{ output: text }`) the parent model receives. */
  responseRef: string;
  /** The start of the text, for events and status. */
  preview: string;
}

/** How much of the result text events and `status` show. */
const PREVIEW_CHARS = 300;

/**
 * `invoke_agent`'s result when the sub-agent's output holds blob markers: only here, in an activity,
 * can the markers become their full text again, so that the parent model reads the whole report and
 * not 200-character previews. The text goes to the store and the workflow keeps its reference.
 */
export async function agentResult(store: TranscriptStore, input: AgentResultInput): Promise<AgentResultOutput> {
  const output = await resolveBlobMarkers(input.output, store);
  const text = subagentResultText(input.agentName, input.reason, completeTaskOutputText(output));
  return { responseRef: await store.putBlob(JSON.stringify({ output: text })), preview: text.slice(0, PREVIEW_CHARS) };
}
