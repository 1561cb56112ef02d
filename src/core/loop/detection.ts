import { createLlmCheckSchedule } from './llm-schedule';
import type { ContentTracking, LoopDetection, LoopState } from './types';

export type { ContentTracking, LlmCheckSchedule, LoopDetection, LoopKind, LoopState } from './types';

/**
 * Loop detection levels 1 (tool-call cycles) and 2 (content chanting), after Gemini CLI's
 * LoopDetectionService, as pure functions over a small JSON state: the workflow runs them on every
 * model turn, and the state rides through continue-as-new. Level 3 (the LLM check) is scheduled in
 * `llm-schedule.ts`; the bookkeeping of what a detection leads to is at the end of this file.
 */

export const TOOL_CALL_LOOP_THRESHOLD = 5;
/** Cycle lengths 1..5: `k = 1` is one call five times in a row, `k = 2` is A,B,A,B,… ×5. */
export const MAX_TOOL_CALL_CYCLE = 5;
export const TOOL_CALL_HISTORY = TOOL_CALL_LOOP_THRESHOLD * MAX_TOOL_CALL_CYCLE;
export const CONTENT_CHUNK_SIZE = 50;
export const CONTENT_LOOP_THRESHOLD = 10;
export const CONTENT_MAX_MEAN_DISTANCE = 5 * CONTENT_CHUNK_SIZE;
export const CONTENT_MAX_DISTINCT_PERIODS = Math.floor(CONTENT_LOOP_THRESHOLD / 2);
export const CONTENT_HISTORY_LIMIT = 5000;
export const DEFAULT_LOOP_DETAIL = 'Repetitive patterns identified';

export interface Observation {
  state: LoopState;
  detection?: LoopDetection;
}

export function createLoopState(disabled = false): LoopState {
  return { disabled, detections: 0, toolKeys: [], content: emptyContent(false), llm: createLlmCheckSchedule() };
}

/** A new user prompt starts from scratch, as Gemini CLI's reset on a new prompt id; `disabled` stays. */
export function resetForNewPrompt(state: LoopState): LoopState {
  return createLoopState(state.disabled);
}

/**
 * Level 1, for each function call the model makes. The call's key is a hash of
 * `name:JSON.stringify(args)`; the last 25 keys are kept across the model turns of the prompt, and a
 * loop is the last `k × 5` keys being one `k`-call cycle repeated 5 times. A tool call also ends any
 * run of text, so content tracking restarts.
 */
export function observeToolCall(state: LoopState, name: string, args: unknown): Observation {
  if (state.disabled) return { state };
  const toolKeys = [...state.toolKeys, fnv1a64(`${name}:${JSON.stringify(args)}`)].slice(-TOOL_CALL_HISTORY);
  const next: LoopState = { ...state, toolKeys, content: emptyContent(state.content.inCodeBlock) };
  const cycle = repeatedCycleLength(toolKeys);
  if (cycle === undefined) return { state: next };
  const inCycle = cycle > 1 ? ` (the last ${cycle} calls, repeated ${TOOL_CALL_LOOP_THRESHOLD} times)` : '';
  return {
    state: next,
    detection: {
      kind: 'tool_call_loop',
      detail: `Repeated tool call: ${name} with arguments ${JSON.stringify(args)}${inCycle}`,
    },
  };
}

/**
 * Level 2, for model text. Gemini CLI checks each streamed chunk; given one string, this feeds it
 * line by line (the reset rules are written for line starts), given an array it feeds the chunks
 * as they are. Stops at the first detection, as Gemini CLI stops reading the stream. Tracking is
 * not reset by a detection: like Gemini CLI, the next tracked text re-detects at once unless a
 * tool call, a fence, a list, a table, a heading or a quote came in between.
 */
export function observeContent(state: LoopState, text: string | readonly string[]): Observation {
  if (state.disabled) return { state };
  const scan = openScan(state.content);
  const chunks = typeof text === 'string' ? (text.match(/[^\n]*\n|[^\n]+/g) ?? []) : text;
  for (const chunk of chunks) {
    if (scanChunk(scan, chunk)) {
      const at = scan.next - scan.base;
      const quote = scan.text.substring(Math.max(0, at - 20), at + CONTENT_CHUNK_SIZE).trim();
      return {
        state: { ...state, content: closeScan(scan) },
        detection: { kind: 'content_loop', detail: `Repeating content detected: "${quote}..."` },
      };
    }
  }
  return { state: { ...state, content: closeScan(scan) } };
}

/**
 * One model turn: its text first, then its calls in order (Gemini CLI's stream order). On a tool-call
 * loop, `callIndex` is the call that detected: Gemini CLI never passes that one on, nor any after it.
 */
export function observeModelTurn(
  state: LoopState,
  turn: { text: string; functionCalls: readonly { name: string; args: unknown }[] },
): Observation & { callIndex?: number } {
  const seen = observeContent(state, turn.text);
  if (seen.detection) return seen;
  let current = seen.state;
  for (const [callIndex, call] of turn.functionCalls.entries()) {
    const next = observeToolCall(current, call.name, call.args);
    if (next.detection) return { ...next, callIndex };
    current = next.state;
  }
  return { state: current };
}

/** FNV-1a, 64 bits, over UTF-16 code units: a stable key without `crypto` (not in the sandbox). */
export function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

function repeatedCycleLength(keys: readonly string[]): number | undefined {
  for (let k = 1; k <= MAX_TOOL_CALL_CYCLE && k * TOOL_CALL_LOOP_THRESHOLD <= keys.length; k++) {
    const tail = keys.slice(-k * TOOL_CALL_LOOP_THRESHOLD);
    if (tail.every((key, i) => key === tail[i % k])) return k;
  }
  return undefined;
}

function emptyContent(inCodeBlock: boolean): ContentTracking {
  return { text: '', next: 0, inCodeBlock };
}

/**
 * Working form of `ContentTracking` for one observation. Positions are absolute (`base` is the
 * position of `text[0]`), so trimming the text to its limit never rewrites them. The index of
 * windows is rebuilt from the text rather than stored: every window before `next` was counted, so
 * the rebuilt index is exactly the one Gemini CLI keeps, and the stored state stays small.
 */
interface Scan {
  text: string;
  base: number;
  next: number;
  inCodeBlock: boolean;
  seen: Map<string, number[]>;
}

const TABLE = /(^|\n)\s*(\|.*\||[|+-]{3,})/;
const LIST_ITEM = /(^|\n)\s*([-*+]|\d+\.)\s/;
const HEADING = /(^|\n)#+\s/;
const BLOCKQUOTE = /(^|\n)>\s/;
const DIVIDER = /^[-+_=*\u2500-\u257F]+$/;

function openScan(content: ContentTracking): Scan {
  const scan: Scan = { ...content, base: 0, seen: new Map() };
  for (let at = 0; at < content.next; at++) occurrences(scan, windowAt(scan, at)).push(at);
  return scan;
}

function closeScan(scan: Scan): ContentTracking {
  return { text: scan.text, next: scan.next - scan.base, inCodeBlock: scan.inCodeBlock };
}

/** Gemini CLI's per-chunk rule: reset on a new kind of element, skip code and dividers, analyse. */
function scanChunk(scan: Scan, chunk: string): boolean {
  const fences = (chunk.match(/```/g) ?? []).length;
  const divider = DIVIDER.test(chunk.replace(/\r?\n$/, ''));
  if (
    fences > 0 ||
    divider ||
    TABLE.test(chunk) ||
    LIST_ITEM.test(chunk) ||
    HEADING.test(chunk) ||
    BLOCKQUOTE.test(chunk)
  ) {
    Object.assign(scan, { text: '', base: 0, next: 0 });
    scan.seen.clear();
  }
  const wasInCodeBlock = scan.inCodeBlock;
  if (fences % 2 === 1) scan.inCodeBlock = !wasInCodeBlock;
  if (wasInCodeBlock || scan.inCodeBlock || divider) return false;
  scan.text += chunk;
  const excess = scan.text.length - CONTENT_HISTORY_LIMIT;
  if (excess > 0) {
    scan.text = scan.text.slice(excess);
    scan.base += excess;
    scan.next = Math.max(scan.next, scan.base);
  }
  for (; scan.next + CONTENT_CHUNK_SIZE <= scan.base + scan.text.length; scan.next++) {
    if (isChanting(scan, scan.next)) return true;
  }
  return false;
}

/** The window at `at` is a loop: seen 10 times, close together, and with few distinct periods. */
function isChanting(scan: Scan, at: number): boolean {
  const positions = occurrences(scan, windowAt(scan, at));
  positions.push(at);
  if (positions.length < CONTENT_LOOP_THRESHOLD) return false;
  const recent = positions.slice(-CONTENT_LOOP_THRESHOLD);
  const meanDistance = (recent[recent.length - 1] - recent[0]) / (CONTENT_LOOP_THRESHOLD - 1);
  if (meanDistance > CONTENT_MAX_MEAN_DISTANCE) return false;
  const periods = new Set<string>();
  for (let i = 0; i + 1 < recent.length; i++)
    periods.add(scan.text.substring(recent[i] - scan.base, recent[i + 1] - scan.base));
  return periods.size <= CONTENT_MAX_DISTINCT_PERIODS;
}

function windowAt(scan: Scan, at: number): string {
  return scan.text.substring(at - scan.base, at - scan.base + CONTENT_CHUNK_SIZE);
}

/** Positions of a window still inside the tracked text (trimmed ones are dropped on the way). */
function occurrences(scan: Scan, window: string): number[] {
  let positions = scan.seen.get(window);
  if (!positions) scan.seen.set(window, (positions = []));
  while (positions.length > 0 && positions[0] < scan.base) positions.shift();
  return positions;
}

export type LoopAction =
  | { state: LoopState; action: 'recover'; message: string }
  | { state: LoopState; action: 'stop' };

/**
 * What a detection leads to. The first in a prompt: send `message` as the next user message and go
 * on (the text or call that detected is abandoned). The second: end the prompt as loop-detected.
 */
export function recordDetection(state: LoopState, detection: LoopDetection): LoopAction {
  const next = { ...state, detections: state.detections + 1 };
  return next.detections > 1
    ? { state: next, action: 'stop' }
    : { state: next, action: 'recover', message: loopRecoveryMessage(detection.detail) };
}

/** The recovery user message; the first line follows Gemini CLI's, the rest is ours. */
export function loopRecoveryMessage(detail: string): string {
  return [
    `System: Potential loop detected. Details: ${detail.trim() || DEFAULT_LOOP_DETAIL}.`,
    'You seem to be repeating yourself without getting closer to the goal. Stop and review what you have done so ' +
      'far and what it produced.',
    'Check that your next step makes real progress; if an approach keeps failing, choose a different one or say ' +
      'what blocks you.',
    'Do not repeat a tool call with the same arguments, and do not repeat the same text.',
  ].join('\n');
}

/**
 * A person let a prompt flagged as looping go on: detection stays on, but the count and what was
 * tracked start over, so the model gets a fresh window (the LLM-check cadence is kept).
 */
export function continueAfterLoop(state: LoopState): LoopState {
  return { ...createLoopState(state.disabled), llm: state.llm };
}

/** A person turned detection off for the rest of the run (Gemini CLI's "disable for this session"). */
export function disableLoopDetection(state: LoopState): LoopState {
  return { ...createLoopState(true), llm: state.llm };
}
