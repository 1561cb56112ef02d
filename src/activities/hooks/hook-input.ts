import type { Content } from '@google/genai';
import type { HookPlan } from '../../core/hooks/plan';
import type { HookEventName } from '../../core/hooks/types';
import type { NewPart } from '../../core/types';
import { resolveBlobMarkers } from '../../store/blobs';
import type { TranscriptStore } from '../../store/types';
import { PLANS_DIR } from '../../tools/plan-mode';
import { toParts } from '../user-parts';
import { toHookRequest, toHookResponse } from './llm-shapes';
import { confirmationDetails, type ConfirmationRequest } from './confirmation-details';

/** What the workflow knows about where the prompt stands, for the hook input and environment. */
export interface HookContext {
  sessionId: string;
  promptId: string;
  workspace: string;
  transcriptId?: string;
}

export interface RunHooksInput {
  event: HookEventName;
  plan: HookPlan;
  context: HookContext;
  /** The event's own fields of the hook input (`tool_name`, `prompt`, ...); blob markers are resolved here. */
  fields: Record<string, unknown>;
  /** The call a Notification (`ToolPermission`) is about: its Gemini CLI confirmation details join `details`. */
  confirmation?: ConfirmationRequest;
  /** A tool's result by reference (AfterTool): becomes `tool_response`. */
  toolResponse?: { ref?: string; response?: Record<string, unknown> };
  /**
   * The model request (BeforeModel, BeforeToolSelection) or request and response (AfterModel), by transcript reference.
   */
  llm?: {
    transcriptId: string;
    length: number;
    append: NewPart[];
    model: string;
    toolNames?: string[];
    responseAt?: number;
  };
}

/**
 * The JSON a hook reads on stdin: Gemini CLI's base fields, then the event's own.
 * `transcript_path` is empty: the conversation lives in a transcript store, named by
 * `transcript_id`; model events carry it as `llm_request` / `llm_response` instead.
 */
export async function buildHookInput(store: TranscriptStore, input: RunHooksInput): Promise<Record<string, unknown>> {
  const payload: Record<string, unknown> = {
    session_id: input.context.sessionId,
    transcript_path: '',
    transcript_id: input.context.transcriptId ?? '',
    cwd: input.context.workspace,
    hook_event_name: input.event,
    timestamp: new Date().toISOString(),
    ...(await resolveBlobMarkers(input.fields, store)),
  };
  if (input.confirmation) {
    const call = { ...input.confirmation, args: await resolveBlobMarkers(input.confirmation.args, store) };
    const ours = typeof payload.details === 'object' ? payload.details : {};
    payload.details = { ...(await confirmationDetails(input.context.workspace, call)), ...ours };
  }
  if (input.toolResponse) payload.tool_response = await toolResponseOf(store, input.toolResponse);
  if (input.llm) Object.assign(payload, await llmDocuments(store, input.llm));
  return payload;
}

/** Gemini CLI's variables (kept by name, so its hooks run unchanged) and ours. */
export function hookEnvironment(context: HookContext): Record<string, string> {
  return {
    GEMINI_PROJECT_DIR: context.workspace,
    GEMINI_CWD: context.workspace,
    GEMINI_PLANS_DIR: `${context.workspace}/${PLANS_DIR}`,
    GEMINI_SESSION_ID: context.sessionId,
    CLAUDE_PROJECT_DIR: context.workspace,
    DURABLE_AGENT_SESSION_ID: context.sessionId,
    DURABLE_AGENT_PROMPT_ID: context.promptId,
  };
}

/** Gemini CLI's `tool_response`: `llmContent` is what the model is sent, `error` set on failure. */
async function toolResponseOf(
  store: TranscriptStore,
  ref: NonNullable<RunHooksInput['toolResponse']>,
): Promise<Record<string, unknown>> {
  const response = ref.ref
    ? (JSON.parse(await store.getBlob(ref.ref)) as Record<string, unknown>)
    : (ref.response ?? {});
  const error = typeof response.error === 'string' ? response.error : undefined;
  const llmContent = error ?? (typeof response.output === 'string' ? response.output : JSON.stringify(response));
  return { llmContent, returnDisplay: llmContent, error: error ? { message: error } : null };
}

async function llmDocuments(
  store: TranscriptStore,
  llm: NonNullable<RunHooksInput['llm']>,
): Promise<Record<string, unknown>> {
  if (llm.responseAt !== undefined) {
    const messages = await store.readMessages(llm.transcriptId, llm.responseAt + 1);
    const response = messages.pop();
    return { llm_request: toHookRequest(llm.model, messages, llm.toolNames), llm_response: toHookResponse(response) };
  }
  const contents: Content[] = await store.readMessages(llm.transcriptId, llm.length);
  if (llm.append.length > 0) contents.push({ role: 'user', parts: await toParts(llm.append, store) });
  return { llm_request: toHookRequest(llm.model, contents, llm.toolNames) };
}
