import type { FunctionCall, TokenUsage } from './types';

/** The subset of a streamed `GenerateContentResponse` chunk that a model turn is built from. */
export interface StreamChunk {
  candidates?: {
    content?: { parts?: ChunkPart[] };
    finishReason?: string;
  }[];
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    cachedContentTokenCount?: number;
    thoughtsTokenCount?: number;
    totalTokenCount?: number;
  };
}

export interface ChunkPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
  [key: string]: unknown;
}

export interface AssembledTurn {
  text: string;
  thoughts: { subject: string; description: string }[];
  functionCalls: FunctionCall[];
  finishReason?: string;
  usage: TokenUsage;
  /** Parts to record in the transcript: thoughts dropped, adjacent text merged, call ids filled in. */
  historyParts: ChunkPart[];
}

/**
 * Folds stream chunks into one model turn. Calls without a model-given id get `call_<turn>_<n>`,
 * computed here (in the activity) so that ids are recorded in history and never depend on time.
 */
export function assembleTurn(chunks: StreamChunk[], turn: number): AssembledTurn {
  const parts: ChunkPart[] = [];
  const thoughts: AssembledTurn['thoughts'] = [];
  const functionCalls: FunctionCall[] = [];
  let finishReason: string | undefined;
  let usage: TokenUsage = { input: 0, output: 0, cached: 0, thoughts: 0, total: 0 };
  for (const chunk of chunks) {
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.thought) {
        if (part.text) thoughts.push(parseThought(part.text));
        continue;
      }
      if (part.functionCall) {
        const call = toFunctionCall(part.functionCall, turn, functionCalls.length);
        functionCalls.push(call);
        parts.push({ ...part, functionCall: { id: call.id, name: call.name, args: call.args } });
      } else if (typeof part.text === 'string' || Object.keys(part).length > 0) {
        parts.push({ ...part });
      }
    }
    if (candidate?.finishReason) finishReason = candidate.finishReason;
    if (chunk.usageMetadata) usage = toUsage(chunk.usageMetadata);
  }
  const historyParts = mergeText(parts);
  const text = historyParts
    .filter((p) => typeof p.text === 'string')
    .map((p) => p.text)
    .join('');
  return { text, thoughts, functionCalls, finishReason, usage, historyParts };
}

/** Gemini CLI's convention: the first `**...**` pair is the subject, the rest the description. */
export function parseThought(raw: string): { subject: string; description: string } {
  const match = /\*\*(.+?)\*\*/s.exec(raw);
  if (!match) return { subject: '', description: raw.trim() };
  const description = (raw.slice(0, match.index) + raw.slice(match.index + match[0].length)).trim();
  return { subject: match[1].trim(), description };
}

/** Longer names and ids than any tool's are the model's mistake, never a real tool or call id. */
export const MAX_FUNCTION_NAME_CHARS = 256;
const SHOWN_NAME_CHARS = 64;
const MAX_CALL_ID_CHARS = 256;

/**
 * A call as the workflow handles it. An overlong name is cut (it names no tool, so the model gets
 * `tool_not_registered` back) and an overlong or non-string id is replaced: either would otherwise
 * leave the activity as a blob marker where the workflow expects a string.
 */
function toFunctionCall(fc: NonNullable<ChunkPart['functionCall']>, turn: number, n: number): FunctionCall {
  const raw = typeof fc.name === 'string' ? fc.name.trim() : '';
  const name = raw.length > MAX_FUNCTION_NAME_CHARS ? `${raw.slice(0, SHOWN_NAME_CHARS)}...` : raw || 'generic_tool';
  const id = typeof fc.id === 'string' && fc.id && fc.id.length <= MAX_CALL_ID_CHARS ? fc.id : `call_${turn}_${n}`;
  return { id, name, args: fc.args ?? {} };
}

/** The Gemini API's usage report (of a stream chunk or a whole answer) as our counts. */
export function toUsage(u: NonNullable<StreamChunk['usageMetadata']>): TokenUsage {
  return {
    input: u.promptTokenCount ?? 0,
    output: u.candidatesTokenCount ?? 0,
    cached: u.cachedContentTokenCount ?? 0,
    thoughts: u.thoughtsTokenCount ?? 0,
    total: u.totalTokenCount ?? 0,
  };
}

function mergeText(parts: ChunkPart[]): ChunkPart[] {
  const out: ChunkPart[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    const plainText = (p: ChunkPart) => typeof p.text === 'string' && Object.keys(p).length === 1;
    if (last && plainText(last) && plainText(part)) last.text = `${last.text}${part.text}`;
    else out.push(part);
  }
  return out.filter((p) => !(Object.keys(p).length === 1 && p.text === ''));
}
