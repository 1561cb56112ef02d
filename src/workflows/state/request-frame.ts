import type { CallModelInput, FramedCallModelInput } from '../../activities/call-model';
import type { RequestFrame } from '../../activities/request-frame';
import { promptShape } from '../../core/prompt/shape';

/** The frame the last request of this run stored: its JSON (to compare) and its reference. */
export interface FrameMemo {
  json: string;
  ref: string;
}

/**
 * The request with its frame by reference when this run's previous request stored the same frame,
 * inline otherwise (first request, a frame changed by hooks or the mode, a new run after
 * continue-as-new). Activity inputs are not compared on replay, so either form replays.
 */
export function framedRequest(
  memo: FrameMemo | undefined,
  request: CallModelInput,
): { request: FramedCallModelInput; json: string } {
  const { workspace, toolNames, systemPrompt, extraDeclarations, sampling, memoryRef, mcpDeclarationsRef, ...more } =
    request;
  const { mode, unattended, systemMd, skills, ...rest } = more;
  // A frame without sampling, memory or MCP tools serialises as before, so older runs keep their references.
  const frame: RequestFrame = {
    workspace,
    toolNames,
    systemPrompt,
    extraDeclarations,
    ...(sampling ? { sampling } : {}),
    ...(memoryRef ? { memoryRef } : {}),
    ...(mcpDeclarationsRef ? { mcpDeclarationsRef } : {}),
    ...promptShape({ mode, unattended, systemMd, skills }),
  };
  const json = JSON.stringify(frame);
  return { request: memo?.json === json ? { ...rest, frameRef: memo.ref } : request, json };
}

/**
 * Sends one model request through `call`, by reference to the frame `memo` holds when it is the same; the frame
 * reference its answer carries goes to `remember`.
 */
export async function callFramed<T extends { frameRef?: string }>(
  memo: FrameMemo | undefined,
  remember: (frame: FrameMemo) => void,
  request: CallModelInput,
  call: (input: FramedCallModelInput) => Promise<T>,
): Promise<T> {
  const { request: framed, json } = framedRequest(memo, request);
  const turn = await call(framed);
  if (turn.frameRef) remember({ json, ref: turn.frameRef });
  return turn;
}
