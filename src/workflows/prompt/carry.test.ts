import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PromptInput } from '../api';
import type { FlatPromptCarry } from './carry';
import { createPromptState } from '../state/prompt-state';
import { carryOf, fromFlatCarry, MAX_RUN_EVENTS, restoreCarry, runEventCap } from './carry';

/** The input of the second run of a prompt recorded before its state had pieces: it holds the flat carry. */
function recordedInput(): PromptInput {
  const file = path.join(__dirname, '..', '..', '..', 'test', 'histories', 'prompt-continue-as-new-run2.json');
  const history = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    events: { workflowExecutionStartedEventAttributes?: { input: { payloads: { data: string }[] } } }[];
  };
  const data = history.events[0].workflowExecutionStartedEventAttributes!.input.payloads[0].data;
  return JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as PromptInput;
}

describe('the continue-as-new carry', () => {
  const input = recordedInput();
  const flat = input.resume as FlatPromptCarry;

  it('the recorded run really carries the old flat shape', () => {
    expect(flat).toHaveProperty('turns');
    expect(flat).not.toHaveProperty('progress');
  });

  it.each([
    ['model', 'progress.model'],
    ['fellBack', 'progress.fellBack'],
    ['mode', 'progress.mode'],
    ['turns', 'progress.turns'],
    ['response', 'progress.response'],
    ['stats', 'progress.stats'],
    ['sessionRules', 'progress.sessionRules'],
    ['publishedStatus', 'progress.publishedStatus'],
    ['runs', 'progress.runs'],
    ['lastPromptTokens', 'context.lastPromptTokens'],
    ['forceCompress', 'context.forceCompress'],
    ['compressionFailed', 'context.compressionFailed'],
    ['compressions', 'context.compressions'],
    ['steering', 'context.steering'],
    ['loop', 'loop'],
    ['eventBase', 'log.base'],
    ['events', 'log.events'],
    ['calls', 'calls'],
    ['cursor', 'cursor'],
  ])('old %s lands in %s', (from, to) => {
    const pieces = fromFlatCarry(flat) as unknown as Record<string, unknown>;
    const value = to.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], pieces);
    expect(value).toEqual((flat as unknown as Record<string, unknown>)[from]);
  });

  it('a run resumed from the old carry holds the same state as one resumed from the new carry', () => {
    const old = createPromptState(input);
    const cursor = restoreCarry(old, flat);
    expect(cursor).toEqual(flat.cursor);
    expect(old.progress).toMatchObject({ turns: flat.turns, mode: flat.mode, sessionRules: flat.sessionRules });
    expect(old.book.calls.size).toBe(flat.calls.length);
    const carried = JSON.parse(JSON.stringify(carryOf(old, cursor))) as ReturnType<typeof carryOf>;
    const again = createPromptState(input);
    restoreCarry(again, carried);
    expect({ ...again.progress, runs: again.progress.runs - 1 }).toEqual(old.progress);
    expect(again.context).toEqual(old.context);
    expect(again.log).toEqual(old.log);
    expect([...again.book.calls.values()]).toEqual([...old.book.calls.values()]);
  });

  it('every field of the state pieces is carried: a new field needs no line in the carry', () => {
    const state = createPromptState({ ...input, resume: undefined });
    Object.assign(state.progress, { futureField: 1 });
    Object.assign(state.context, { futureField: 2 });
    const carried = carryOf(state, { transcriptId: 't', length: 0, append: [] });
    expect(carried.progress).toHaveProperty('futureField', 1);
    expect(carried.context).toHaveProperty('futureField', 2);
  });
});

describe('the event cap of a run', () => {
  it('is 2,000 unless the input sets it', () => {
    expect(runEventCap(createPromptState({ ...recordedInput(), resume: undefined }).settings.maxRunEvents)).toBe(2000);
    expect(runEventCap(600)).toBe(600);
  });

  it.each([0, -5, 2.5, Number.NaN, '600', null])('a maxRunEvents of %p keeps the default', (bad) => {
    expect(runEventCap(bad)).toBe(MAX_RUN_EVENTS);
  });
});
