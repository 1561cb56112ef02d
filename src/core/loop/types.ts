/** The plain-JSON state of loop detection, shared by its levels and carried across continue-as-new. */

export type LoopKind = 'tool_call_loop' | 'content_loop' | 'llm_loop';

export interface LoopDetection {
  kind: LoopKind;
  /** What repeats, in words the model can act on; it goes into the recovery message. */
  detail: string;
}

/** Level-2 tracking: text since the last reset, and how far it has been analysed. */
export interface ContentTracking {
  /** The newest tracked text, at most `CONTENT_HISTORY_LIMIT` characters. */
  text: string;
  /** Start of the next 50-character window to analyse; every earlier window has been counted. */
  next: number;
  /** Inside a ``` fence: such text is never tracked (repetitive code is not a loop). */
  inCodeBlock: boolean;
}

/** Everything loop detection knows about a prompt; plain JSON, at most ~5 KB of text plus 25 keys. */
export interface LoopState {
  /** Detection turned off for the run: every observation is ignored. */
  disabled: boolean;
  /** Detections in this prompt: the first one recovers, the second one stops the prompt. */
  detections: number;
  /** Hashes of the last `TOOL_CALL_HISTORY` tool calls of the prompt, oldest first. */
  toolKeys: string[];
  content: ContentTracking;
  llm: LlmCheckSchedule;
}

export interface LlmCheckSchedule {
  /** Model requests so far in this prompt, recovery requests included. */
  requests: number;
  /** `requests` when the last check ran (0: never). */
  lastCheckAt: number;
  /** Requests between checks: 10 at first, then 5..15 from the last confidence. */
  interval: number;
}
