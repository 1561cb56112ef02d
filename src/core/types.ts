import type { LoopDetection } from './loop/types';
/** Plain JSON data that crosses workflow and activity boundaries. */

export type ApprovalMode = 'default' | 'auto_edit' | 'yolo' | 'plan';
export const APPROVAL_MODES: readonly ApprovalMode[] = ['default', 'auto_edit', 'yolo', 'plan'];

export interface TokenUsage {
  input: number;
  output: number;
  cached: number;
  thoughts: number;
  total: number;
}

/** One model request's usage, as its answer reported it (requests are priced one at a time: prices have tiers). */
export interface RequestUsage {
  model: string;
  usage: TokenUsage;
}

export const EMPTY_USAGE: TokenUsage = { input: 0, output: 0, cached: 0, thoughts: 0, total: 0 };

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cached: a.cached + b.cached,
    thoughts: a.thoughts + b.thoughts,
    total: a.total + b.total,
  };
}

/**
 * A JSON value in which long strings may be replaced by a reference into the transcript store, so
 * that large model output (a `write_file` body) never enters workflow history (invariant 4).
 */
export interface BlobMarker {
  $blob: string;
  size: number;
  preview: string;
}

/** A function call as the model made it; `id` is unique within the prompt. */
export interface FunctionCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /**
   * Set by the model activity when the arguments are unusable as they stand (a forged blob marker):
   * the workflow answers the call with this message and never runs it.
   */
  invalid?: string;
  /** Set by the workflow when the model reused an id of this prompt: the id its function response carries. */
  modelId?: string;
}

/** The assembled result of one streamed model request. */
export interface ModelTurn {
  /** The answer's text; when long, its beginning and a note, with the whole text at `textRef`. */
  text: string;
  /** Store reference of the whole text, set when `text` was cut (absent in older histories). */
  textRef?: string;
  thoughts: { subject: string; description: string }[];
  functionCalls: FunctionCall[];
  finishReason?: string;
  usage: TokenUsage;
  /** Usage of earlier tries of this call whose answers were dropped (invalid, broken): billed all the same. */
  droppedTries?: TokenUsage[];
  model: string;
  /** Transcript length after the request and this response were appended. */
  transcriptLength: number;
  /** Set when the request was not sent because it cannot fit the context window. */
  overflow?: { estimatedRequestTokens: number; remainingTokens: number };
  /** Set when the request's frame came inline: its reference, for the next requests (activities/request-frame). */
  frameRef?: string;
  /** Set when the stream was cut on a content loop: the turn is partial and is to be abandoned. */
  loop?: LoopDetection;
}

/** One part of the user message appended to the transcript before a model request. */
export type NewPart =
  /** `textRef`: the whole text in the store, `text` only its start (a long sub-agent task). */
  | { kind: 'text'; text: string; textRef?: string }
  /** An image sent with the prompt: base64 bytes in the store under `ref`. */
  | { kind: 'media'; mimeType: string; ref: string }
  | {
      kind: 'functionResponse';
      callId: string;
      name: string;
      response?: Record<string, unknown>;
      responseRef?: string;
    };

/** A tool call's result as the workflow keeps it: the full response lives in the store. */
export interface ToolOutcome {
  callId: string;
  name: string;
  ok: boolean;
  /** Store reference of the JSON `response` object sent to the model (large results). */
  responseRef?: string;
  /** The `response` object itself, for small results made in the workflow (denials, bad arguments). */
  response?: Record<string, unknown>;
  /** Short text for events and status (never the whole output). */
  preview: string;
  errorKind?: string;
  /** A file whose content the model now knows (it read or wrote it): its path and fingerprint. */
  known?: { path: string; fingerprint: string };
  /** The model requests the tool made (the web tools' grounded calls), for the prompt's stats and cost. */
  requests?: RequestUsage[];
}

export type TerminateReason =
  | 'completed'
  | 'stopped'
  | 'max_turns'
  | 'loop_detected'
  | 'context_overflow'
  | 'cancelled'
  | 'error';

export type ToolCallStatus =
  | 'validating'
  | 'scheduled'
  | 'awaiting_approval'
  /** An `ask_user` call waiting for the user's answer. */
  | 'awaiting_answer'
  | 'executing'
  | 'success'
  | 'error'
  | 'cancelled';
