import type { LoopDecision } from '../api';

/**
 * Why a run waits for a person between two steps, and the answer once it came: an exhausted token budget (a
 * top-up in tokens, or stop) or a second loop detection (go on, go on without detection, or stop).
 */
export type Pause = { kind: 'budget'; answer?: number | 'stop' } | { kind: 'loop'; answer?: LoopDecision };
