import type { HookDecision, HookEventName, HookOutput } from './types';

/** The parts of a decision that come from hook outputs (the activity adds refs and warnings). */
export type Aggregated = Omit<HookDecision, 'ran' | 'warnings' | 'requestRef' | 'responseRef'> & {
  llmRequest?: Record<string, unknown>;
  llmResponse?: Record<string, unknown>;
};

const DECIDING_EVENTS: readonly HookEventName[] = [
  'BeforeTool',
  'AfterTool',
  'BeforeAgent',
  'AfterAgent',
  'SessionStart',
];

/**
 * Gemini CLI's aggregation of several hooks of one event. Deciding events: any
 * `continue: false` stops, any block/deny wins over ask, texts are joined with newlines,
 * `clearContext` is sticky. BeforeToolSelection: NONE beats ANY beats AUTO, allowed names are the
 * sorted union. Everything else (BeforeModel, AfterModel, advisory events): later outputs override
 * earlier fields.
 */
export function aggregateOutputs(event: HookEventName, outputs: HookOutput[]): Aggregated {
  const combined = DECIDING_EVENTS.includes(event)
    ? combine(outputs)
    : outputs.reduce<HookOutput>((acc, o) => ({ ...acc, ...o }), {});
  const specific = combined.hookSpecificOutput ?? {};
  const decision = combined.decision === 'approve' ? 'allow' : (combined.decision ?? 'allow');
  const stop = combined.continue === false;
  const reason = (stop ? combined.stopReason || combined.reason : combined.reason) || undefined;
  const tail = specific.tailToolCallRequest;
  return {
    stop,
    blocked: decision === 'block' || decision === 'deny',
    decision,
    ...defined({
      reason,
      systemMessage: combined.systemMessage,
      additionalContext: specific.additionalContext,
      clearContext: specific.clearContext,
      toolInput: specific.tool_input,
      tailToolCall: tail ? { name: tail.name, args: tail.args ?? {} } : undefined,
      toolConfig: event === 'BeforeToolSelection' ? toolConfigOf(outputs) : undefined,
      llmRequest: specific.llm_request,
      llmResponse: specific.llm_response,
    }),
  };
}

/** The OR-logic of deciding events, folded into one output. */
function combine(outputs: HookOutput[]): HookOutput {
  const joined = (pick: (o: HookOutput) => string | undefined) => join(outputs.map(pick));
  const decisions = outputs.map((o) => o.decision);
  const decision =
    decisions.find((d) => d === 'block' || d === 'deny') ?? decisions.find((d) => d === 'ask') ?? 'allow';
  const toolInputs = outputs.map((o) => o.hookSpecificOutput?.tool_input).filter((t) => t !== undefined);
  return {
    continue: outputs.some((o) => o.continue === false) ? false : undefined,
    stopReason: joined((o) => (o.continue === false ? o.stopReason : undefined)),
    decision,
    reason: joined((o) => o.reason),
    systemMessage: joined((o) => o.systemMessage),
    hookSpecificOutput: {
      additionalContext: joined((o) => o.hookSpecificOutput?.additionalContext),
      clearContext: outputs.some((o) => o.hookSpecificOutput?.clearContext === true) || undefined,
      tool_input: toolInputs.length > 0 ? Object.assign({}, ...toolInputs) : undefined,
      tailToolCallRequest: outputs.map((o) => o.hookSpecificOutput?.tailToolCallRequest).find((t) => t !== undefined),
    },
  };
}

function toolConfigOf(outputs: HookOutput[]): Aggregated['toolConfig'] {
  const configs = outputs.map((o) => o.hookSpecificOutput?.toolConfig).filter((c) => c !== undefined);
  if (configs.length === 0) return undefined;
  if (configs.some((c) => c.mode === 'NONE')) return { mode: 'NONE', allowedFunctionNames: [] };
  const mode = configs.some((c) => c.mode === 'ANY') ? 'ANY' : 'AUTO';
  const names = [...new Set(configs.flatMap((c) => c.allowedFunctionNames ?? []))].sort();
  return { mode, allowedFunctionNames: names };
}

function join(texts: (string | undefined)[]): string | undefined {
  const present = texts.filter((t): t is string => typeof t === 'string' && t.length > 0);
  return present.length > 0 ? present.join('\n') : undefined;
}

function defined<T extends Record<string, unknown>>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
