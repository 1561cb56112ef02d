import { SIDE_CALL_MODELS } from '../../core/models';
import { estimateTextTokens } from '../../core/tokens';
import type { FunctionCall } from '../../core/types';
import { findTool } from '../../tools';
import type { PromptRun } from '../run/prompt-run';
import { isPatched, PATCHES } from '../patches';

/** A model request a tool call would send, sized as the spending limit sizes the prompt's own requests. */
export interface ToolRequest {
  model: string;
  promptTokens: number;
  /** The tools whose requests these are, named in the `cost_limit_reached` event. */
  what: string;
  calls: number;
}

/** The spending limit's check (the prompt's own): 'stop' means the requests must not be sent. */
export type SpendGate = (request: ToolRequest) => Promise<'go' | 'stop'>;

/**
 * Checks, before a wave of calls runs, the model requests its web tools would send: the calls of a wave run side
 * by side, so their worst cases are checked together, as one. A prompt from before this ran them unchecked.
 */
export async function checkWaveSpend(run: PromptRun, wave: FunctionCall[], gate?: SpendGate): Promise<'go' | 'stop'> {
  const sending = wave.filter((call) => findTool(call.name)?.modelRequests);
  if (!gate || sending.length === 0 || run.state.context.costLimitUsd === undefined) return 'go';
  if (!isPatched(PATCHES.toolSpendCheck)) return 'go';
  const requests = sending.map(toolRequest);
  const calls = requests.reduce((sum, r) => sum + r.calls, 0);
  // One request's size for all: the largest, so that `calls` of them bound the wave.
  const promptTokens = Math.max(...requests.map((r) => r.promptTokens));
  const what = [...new Set(sending.map((call) => call.name))].join(', ');
  return gate({ model: SIDE_CALL_MODELS.web, promptTokens, what, calls });
}

/** Each request carries the call's arguments (its query, or its prompt and URLs) and the content it may fetch. */
function toolRequest(call: FunctionCall): ToolRequest {
  const requests = findTool(call.name)?.modelRequests ?? { calls: 0, contentChars: 0 };
  const argsTokens = estimateTextTokens(JSON.stringify(call.args));
  return {
    model: SIDE_CALL_MODELS.web,
    promptTokens: Math.ceil(argsTokens + requests.contentChars / CHARS_PER_TOKEN),
    what: call.name,
    calls: requests.calls,
  };
}

/** The usual estimate for text the workflow does not hold. */
const CHARS_PER_TOKEN = 4;
