import type { LoopDecision } from '../api';
import type { SpendCheck } from '../../core/spend-limit';

/**
 * Why a run waits for a person between two steps, and the answer once it came: an exhausted token budget (a
 * top-up in tokens, or stop), a request that could cross the spending limit (a top-up in US dollars, or stop;
 * `check` says where the run stands) or a second loop detection (go on, go on without detection, or stop).
 */
export type Pause =
  | { kind: 'budget'; answer?: number | 'stop' }
  | { kind: 'cost'; answer?: number | 'stop'; check?: SpendCheck }
  | { kind: 'loop'; answer?: LoopDecision };
