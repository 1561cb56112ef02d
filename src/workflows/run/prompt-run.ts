import { condition } from '@temporalio/workflow';
import type { FunctionCall, NewPart, TerminateReason } from '../../core/types';
import type { Cursor } from '../api';
import type { Pause } from './pause';
import type { SubagentScope } from './subagent-scope';
import type { PromptActivities } from '../state/activity-options';
import type { PromptState } from '../state/prompt-state';

/**
 * The owner of one workflow run of a prompt or a sub-agent: its state (plain JSON pieces, handed whole to
 * continue-as-new by prompt/carry), its activity stubs, the one cursor and the calls of the turn in flight. The
 * loop's steps take the run; the cursor and the open calls change only through its methods, so no step holds a
 * copy that could drift from what the run's ending records.
 */
export class PromptRun {
  private position: Cursor = { transcriptId: '', length: 0, append: [] };
  private open: FunctionCall[] = [];

  constructor(
    readonly state: PromptState,
    readonly acts: PromptActivities,
    /** Set in a sub-agent's run: its definition, its tools and its output once accepted. */
    readonly subagent?: SubagentScope,
  ) {}

  /**
   * Where the run starts: a new prompt's message, or the cursor its previous run carried. Apart from the run so
   * that the message handlers, which take the run, are registered before it (as they always were).
   */
  startAt(cursor: Cursor): void {
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

  /**
   * The one place a run ends: from here queries say `finished`, with the reason and, for a failure, its error.
   * The caller makes the result or failure the workflow returns.
   */
  end(reason: TerminateReason, error?: { type: string; message: string }): void {
    this.state.finished = true;
    this.state.terminateReason = reason;
    if (error) this.state.error = error;
  }

  /** A sub-agent's complete_task output fits its schema: the run ends with `goal` after this turn. */
  complete(output: Record<string, unknown>): void {
    if (this.subagent) this.subagent.completion = output;
  }

  /**
   * The run waits for a person: until `answerPause` brings the answer for `kind`, or `timeoutMs` passes (then the
   * answer is undefined). Queries show the pause meanwhile; it is never carried (pauses happen only between steps).
   */
  async pauseFor<K extends Pause['kind']>(
    kind: K,
    timeoutMs?: number,
    detail?: Omit<Extract<Pause, { kind: K }>, 'kind' | 'answer'>,
  ): Promise<AnswerOf<K> | undefined> {
    this.state.pause = { ...detail, kind } as Pause;
    const answered = () => this.state.pause?.answer !== undefined;
    await (timeoutMs === undefined ? condition(answered) : condition(answered, timeoutMs));
    const answer = this.state.pause?.answer as AnswerOf<K> | undefined;
    this.state.pause = undefined;
    return answer;
  }

  /** A person's answer to a pause of `kind`; false, and nothing changes, when the run is not paused so. */
  answerPause<K extends Pause['kind']>(kind: K, answer: AnswerOf<K>): boolean {
    if (this.state.pause?.kind !== kind) return false;
    this.state.pause = { ...this.state.pause, kind, answer } as Pause;
    return true;
  }
}

type AnswerOf<K extends Pause['kind']> = NonNullable<Extract<Pause, { kind: K }>['answer']>;
