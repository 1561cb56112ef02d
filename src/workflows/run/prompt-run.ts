import type { FunctionCall, NewPart } from '../../core/types';
import type { Cursor } from '../api';
import type { PromptActivities } from '../state/activity-options';
import type { PromptState } from '../state/prompt-state';

/**
 * The owner of one workflow run of a prompt or a sub-agent: its state (plain JSON pieces, handed whole to
 * continue-as-new by prompt/carry), its activity stubs, the one cursor and the calls of the turn in flight. The
 * loop's steps take the run; the cursor and the open calls change only through its methods, so no step holds a
 * copy that could drift from what the run's ending records.
 */
export class PromptRun {
  private position: Cursor;
  private open: FunctionCall[] = [];

  constructor(
    readonly state: PromptState,
    readonly acts: PromptActivities,
    cursor: Cursor,
  ) {
    this.position = cursor;
  }

  /** Where the run stands in its transcript, and the user message its next request carries. */
  get cursor(): Readonly<Cursor> {
    return this.position;
  }

  /** A copy of the cursor, to come back to (`rewind`). */
  snapshot(): Cursor {
    return { ...this.position, append: [...this.position.append] };
  }

  /** Parts go at the end of the pending message. */
  addParts(...parts: NewPart[]): void {
    this.position.append = [...this.position.append, ...parts];
  }

  /** Parts go before the pending message (context a hook adds ahead of the prompt). */
  prependParts(...parts: NewPart[]): void {
    this.position.append = [...parts, ...this.position.append];
  }

  /** The pending message becomes `parts` (an empty list drops it). */
  setMessage(parts: NewPart[]): void {
    this.position.append = parts;
  }

  /** The pending message is in the transcript, which now holds `length` messages. */
  recorded(length: number): void {
    this.position.length = length;
    this.position.append = [];
  }

  /** The conversation goes on in another transcript (compressed or cleared); the pending message stays. */
  moveTo(transcriptId: string, length: number): void {
    this.position.transcriptId = transcriptId;
    this.position.length = length;
  }

  /** Back to a snapshot: an abandoned turn sends the same message again. */
  rewind(to: Cursor): void {
    this.position.transcriptId = to.transcriptId;
    this.position.length = to.length;
    this.position.append = to.append;
  }

  /** The calls of the turn in flight: a cancellation must still answer each of them. */
  get openCalls(): readonly FunctionCall[] {
    return this.open;
  }

  /**
   * The turn's calls are running. They stay open until `callsAnswered`: a cancellation thrown while they run leaves
   * them open for the `catch` that answers them.
   */
  callsOpened(calls: FunctionCall[]): void {
    this.open = calls;
  }

  callsAnswered(): void {
    this.open = [];
  }
}
