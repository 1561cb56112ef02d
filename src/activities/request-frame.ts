import type { TranscriptStore } from '../store/types';
import { promptShape, type PromptShape } from '../core/prompt/shape';
import type { FunctionDeclaration } from '../tools';

/**
 * The part of a model request that stays the same from one turn of a prompt to the next: the
 * workspace, the tool names, the declarations the workflow builds (`invoke_agent` with its agents'
 * descriptions, a sub-agent's `complete_task`) and a sub-agent's system prompt. Sent inline in every
 * request it made history grow by ~1.5 KB per turn; the first request of a run stores it in the
 * transcript store (content-addressed) and later ones pass only its reference.
 */
export interface RequestFrame extends PromptShape {
  workspace: string;
  toolNames: string[];
  /** A sub-agent's own system prompt (the environment section is still added). */
  systemPrompt?: string;
  /** Declarations the workflow builds itself; they replace registry ones of the same name. */
  extraDeclarations?: FunctionDeclaration[];
  /** A sub-agent's own sampling settings (its definition's); absent: the model's defaults. */
  sampling?: Sampling;
  /** Store reference of the project context (GEMINI.md files) the prompt loaded at its start. */
  memoryRef?: string;
  /** Store reference of the declarations MCP discovery found at the start of the run. */
  mcpDeclarationsRef?: string;
}

/** Sampling settings sent with a request, as the SDK's config names them. */
export interface Sampling {
  temperature?: number;
  topP?: number;
}

/** The frame inline (first request of a run, or a changed frame), or by reference (`frameRef`). */
export type FramedInput<T extends RequestFrame> = Omit<T, keyof RequestFrame> &
  Partial<RequestFrame> & { frameRef?: string };

/**
 * The input with its frame resolved, then passed through `complete` (which adds what the frame names by
 * reference). An inline frame is stored and its reference returned (`stored`), for the workflow to send
 * next time; an input of an older workflow (always inline) reads the same.
 */
export async function resolveFrame<T extends RequestFrame>(
  store: TranscriptStore,
  input: FramedInput<T>,
  complete: (store: TranscriptStore, input: T) => Promise<T> = async (_, whole) => whole,
): Promise<{ input: T; stored?: string }> {
  const { frameRef, ...rest } = input;
  if (frameRef) {
    const frame = JSON.parse(await store.getBlob(frameRef)) as RequestFrame;
    return { input: await complete(store, { ...rest, ...frame } as unknown as T) };
  }
  if (rest.workspace === undefined || rest.toolNames === undefined)
    throw new TypeError('a model request needs either frameRef or workspace and toolNames');
  const frame: RequestFrame = {
    workspace: rest.workspace,
    toolNames: rest.toolNames,
    systemPrompt: rest.systemPrompt,
    extraDeclarations: rest.extraDeclarations,
    ...(rest.sampling ? { sampling: rest.sampling } : {}),
    ...(rest.memoryRef ? { memoryRef: rest.memoryRef } : {}),
    ...(rest.mcpDeclarationsRef ? { mcpDeclarationsRef: rest.mcpDeclarationsRef } : {}),
    ...promptShape(rest),
  };
  return { input: await complete(store, rest as unknown as T), stored: await store.putBlob(JSON.stringify(frame)) };
}
