import { ApiError, type Content } from '@google/genai';
import { ApplicationFailure } from '@temporalio/common';
import { COMPRESSION_STATUS } from '../core/compression';
import { storedData } from '../core/media';
import { MODEL_ERROR_TYPES } from '../core/failures';
import { TranscriptGapError } from '../store/types';
import { fakeModel as scriptedModel, textResponse } from '../../test/fakes/fake-json-model';
import type { ModelSeam } from '../model/seam';
import { quietActivityEnv, useTempStore } from '../../test/helpers/activity-harness';
import {
  SNAPSHOT_ACKNOWLEDGEMENT,
  compressTranscript,
  estimateRequestFits,
  snapshotOf,
  type CompressTranscriptInput,
  type CompressTranscriptResult,
} from './compress';

/** One reply (text or error) per call; each text comes after a thought, which must never reach the snapshot. */
const fakeModel = (replies: (string | Error)[]) =>
  scriptedModel(replies.map((reply) => (typeof reply === 'string' ? textResponse(reply, 'private reasoning') : reply)));

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const call = (id: string, name = 'read_file'): Content => ({
  role: 'model',
  parts: [{ functionCall: { id, name, args: {} } }],
});
const response = (id: string, output: string, name = 'read_file'): Content => ({
  role: 'user',
  parts: [{ functionResponse: { id, name, response: { output } } }],
});
const outputOf = (content: Content) => (content.parts?.[0].functionResponse?.response as { output: string }).output;

/** A session whose newest 30% (by characters) starts at message 8. */
const SESSION: Content[] = [
  user(`Refactor the parser. ${'context '.repeat(100)}`),
  call('c1'),
  response('c1', 'p'.repeat(1500)),
  model('I read src/parser.ts.'),
  user('Now fix the failing tests.'),
  call('c2', 'run_shell_command'),
  response('c2', 'Output: 3 failed', 'run_shell_command'),
  model('I fixed the three tests.'),
  user(`One more thing: ${'rename '.repeat(150)}`),
  model('Done: renamed.'),
];

const tmp = useTempStore('da-compress-');

const input = (over: Partial<CompressTranscriptInput> = {}): CompressTranscriptInput => ({
  transcriptId: 'tx',
  length: SESSION.length,
  newTranscriptId: 'tx-compressed',
  model: 'gemini-2.5-pro',
  force: false,
  hasFailedBefore: false,
  lastPromptTokens: 600_000,
  ...over,
});

function run(models: ModelSeam, activityInput: CompressTranscriptInput): Promise<CompressTranscriptResult> {
  return quietActivityEnv().run(compressTranscript, { models, store: tmp.store }, activityInput);
}

describe('compressTranscript', () => {
  it(
    'summarises the older 70% with exactly two calls (summary, then verification) and writes the new ' + 'transcript',
    async () => {
      await tmp.writeTranscript(SESSION);
      const fake = fakeModel([
        '<scratchpad>notes</scratchpad>\n<state_snapshot>draft</state_snapshot>',
        'Checked.\n<state_snapshot>final</state_snapshot>',
      ]);
      const result = await run(fake.models, input());

      expect(fake.requests).toHaveLength(2);
      expect(fake.leftover()).toBe(0);
      const [summary, probe] = fake.requests;
      expect(summary.model).toBe('gemini-2.5-pro');
      expect(summary.config?.systemInstruction).toContain('<state_snapshot>');
      expect(summary.contents.slice(0, 8)).toEqual(SESSION.slice(0, 8));
      expect(summary.contents[8].parts?.[0].text).toContain('Write the <state_snapshot> of the history above.');
      expect(probe.contents.slice(0, 8)).toEqual(SESSION.slice(0, 8));
      expect(probe.contents[8]).toEqual(
        model('<scratchpad>notes</scratchpad>\n<state_snapshot>draft</state_snapshot>'),
      );
      expect(probe.contents[9].parts?.[0].text).toContain('Check the <state_snapshot> you just wrote');

      const written = await tmp.store.readMessages('tx-compressed', 4);
      expect(written).toEqual([
        user('<state_snapshot>final</state_snapshot>'),
        model(SNAPSHOT_ACKNOWLEDGEMENT),
        SESSION[8],
        SESSION[9],
      ]);
      expect(result).toMatchObject({
        status: COMPRESSION_STATUS.compressed,
        originalTokens: 600_000,
        transcriptId: 'tx-compressed',
        newLength: 4,
      });
      expect(result.newTokens).toBeLessThan(400);
      expect(await tmp.store.readMessages('tx', SESSION.length)).toEqual(SESSION);
    },
  );

  it(
    'asks to merge an earlier snapshot, and keeps the first snapshot when the verification pass says ' + 'nothing',
    async () => {
      const history = [user('<state_snapshot>earlier</state_snapshot>'), model(SNAPSHOT_ACKNOWLEDGEMENT), ...SESSION];
      await tmp.writeTranscript(history);
      const fake = fakeModel(['<state_snapshot>merged</state_snapshot>', '']);
      const result = await run(fake.models, input({ length: history.length }));
      expect(fake.requests[0].contents.at(-1)?.parts?.[0].text).toContain('starts from an earlier <state_snapshot>');
      expect(result.status).toBe(COMPRESSION_STATUS.compressed);
      expect((await tmp.store.readMessages('tx-compressed', 1))[0]).toEqual(
        user('<state_snapshot>merged</state_snapshot>'),
      );
    },
  );

  it('shows files read as media to the summariser, and keeps the references of the newest part', async () => {
    const ref = await tmp.store.putBlob('iVBORw0K');
    const png = { inlineData: { mimeType: 'image/png', data: storedData(ref) } };
    const media = (id: string): Content => ({
      role: 'user',
      parts: [{ functionResponse: { id, name: 'read_file', response: { output: 'Read image file' }, parts: [png] } }],
    });
    const older = [call('c0'), response('c0', 'p'.repeat(4000)), call('c1'), media('c1')];
    const history = [SESSION[0], ...older, ...SESSION.slice(3, 9), call('c9'), media('c9'), SESSION[9]];
    await tmp.writeTranscript(history);
    const fake = fakeModel(['<state_snapshot>s</state_snapshot>', '<state_snapshot>s</state_snapshot>']);
    const result = await run(fake.models, input({ length: history.length }));
    const sentPart = fake.requests[0].contents[4].parts?.[0].functionResponse?.parts?.[0];
    expect(sentPart).toEqual({ inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } });
    const kept = await tmp.store.readMessages('tx-compressed', result.newLength);
    expect(kept.slice(2)).toEqual(history.slice(history.length - (result.newLength - 2)));
    expect(JSON.stringify(kept)).toContain(storedData(ref));
  });

  it('never splits between a function call and its response', async () => {
    const history = [
      user('go'),
      model('ok'),
      user('read it'),
      call('c1'),
      response('c1', 'x'.repeat(3000)),
      model('read'),
      user('next'),
      model('fine'),
    ];
    await tmp.writeTranscript(history);
    const fake = fakeModel(['<state_snapshot>s</state_snapshot>', '<state_snapshot>s</state_snapshot>']);
    const result = await run(fake.models, input({ length: history.length }));
    // The 70% mark falls inside the function response; the first plain user message after it is "next".
    expect(fake.requests[0].contents.slice(0, 6)).toEqual(history.slice(0, 6));
    expect(await tmp.store.readMessages('tx-compressed', result.newLength)).toEqual([
      user('<state_snapshot>s</state_snapshot>'),
      model(SNAPSHOT_ACKNOWLEDGEMENT),
      user('next'),
      model('fine'),
    ]);
  });

  it('rejects a summary that would inflate the token count and leaves the transcript as it was', async () => {
    await tmp.writeTranscript(SESSION);
    const fake = fakeModel([
      '<state_snapshot>long</state_snapshot>',
      `<state_snapshot>${'detail '.repeat(500)}</state_snapshot>`,
    ]);
    const result = await run(fake.models, input({ force: true, lastPromptTokens: 500 }));
    expect(fake.requests).toHaveLength(2);
    expect(result).toMatchObject({
      status: COMPRESSION_STATUS.inflated,
      originalTokens: 500,
      transcriptId: 'tx',
      newLength: SESSION.length,
    });
    expect(result.newTokens).toBeGreaterThan(500);
    await expect(tmp.store.readMessages('tx-compressed', 1)).rejects.toBeInstanceOf(TranscriptGapError);
  });

  it('reports an empty summary and writes nothing', async () => {
    await tmp.writeTranscript(SESSION);
    const fake = fakeModel(['   ', '']);
    const result = await run(fake.models, input());
    expect(fake.requests).toHaveLength(2);
    expect(result).toMatchObject({
      status: COMPRESSION_STATUS.emptySummary,
      transcriptId: 'tx',
      newLength: SESSION.length,
    });
  });

  it('does nothing, without a model call, below the threshold or on an empty transcript', async () => {
    await tmp.writeTranscript(SESSION);
    const fake = fakeModel([]);
    expect(await run(fake.models, input({ lastPromptTokens: 524_287 }))).toMatchObject({
      status: COMPRESSION_STATUS.noop,
      originalTokens: 524_287,
      newTokens: 524_287,
      transcriptId: 'tx',
      newLength: SESSION.length,
    });
    expect(await run(fake.models, input({ transcriptId: 'empty', length: 0, force: true }))).toMatchObject({
      status: COMPRESSION_STATUS.noop,
      originalTokens: 0,
      newTokens: 0,
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('a forced compression of a short chat does nothing, without a model call: too little to summarise', async () => {
    const chat = [user('hi'), model('Hello.'), user('thanks'), model('You are welcome.')];
    await tmp.writeTranscript(chat);
    const fake = fakeModel([]);
    const result = await run(fake.models, input({ length: chat.length, force: true, lastPromptTokens: 40 }));
    expect(result).toMatchObject({ status: COMPRESSION_STATUS.noop, transcriptId: 'tx', newLength: chat.length });
    expect(fake.requests).toHaveLength(0);
  });

  it(
    'after a failed attempt only shortens old tool outputs, with no model call, keeping their full text ' + 'readable',
    async () => {
      const outputs = ['a', 'b', 'c', 'd'].map((c) => c.repeat(100_000)); // 25,000 tokens each
      const history = [
        user('start'),
        ...outputs.flatMap((o, i) => [call(`c${i}`), response(`c${i}`, o)]),
        model('done'),
      ];
      await tmp.writeTranscript(history);
      const fake = fakeModel([]);
      const result = await run(fake.models, input({ length: history.length, hasFailedBefore: true }));
      expect(fake.requests).toHaveLength(0);
      expect(result).toMatchObject({
        status: COMPRESSION_STATUS.contentTruncated,
        transcriptId: 'tx-compressed',
        newLength: history.length,
        truncatedOutputs: 2,
      });
      const written = await tmp.store.readMessages('tx-compressed', history.length);
      expect(written.slice(5)).toEqual(history.slice(5));
      for (const i of [2, 4]) {
        const note = outputOf(written[i]);
        expect(note).toContain('60,000 of 100,000 characters were cut');
        const ref = /stored as (sha256:[0-9a-f]{64})/.exec(note)?.[1] ?? '';
        expect(await tmp.store.getBlob(ref)).toBe(outputOf(history[i]));
      }
    },
  );

  it('after a failed attempt does nothing when there is nothing to shorten', async () => {
    await tmp.writeTranscript(SESSION);
    const fake = fakeModel([]);
    const result = await run(fake.models, input({ hasFailedBefore: true }));
    expect(result.status).toBe(COMPRESSION_STATUS.noop);
    expect(fake.requests).toHaveLength(0);
  });

  describe('with a large old tool output', () => {
    const big = 'r'.repeat(1_200_000); // 300,000 tokens: within Gemini's limit, beyond Gemma 4's
    const history = [user('start'), call('c1'), response('c1', big), model('read'), user('go on'), model('ok')];

    it('summarises the original output when it fits the model, and keeps the shortened history', async () => {
      await tmp.writeTranscript(history);
      const fake = fakeModel(['<state_snapshot>s</state_snapshot>', '<state_snapshot>s</state_snapshot>']);
      const result = await run(fake.models, input({ length: history.length }));
      expect(outputOf(fake.requests[0].contents[2])).toBe(big);
      expect(result).toMatchObject({ status: COMPRESSION_STATUS.compressed, newLength: 4, truncatedOutputs: 1 });
    });

    it('summarises the shortened output when the original does not fit the model', async () => {
      await tmp.writeTranscript(history);
      const fake = fakeModel(['<state_snapshot>s</state_snapshot>', '<state_snapshot>s</state_snapshot>']);
      await run(fake.models, input({ length: history.length, model: 'gemma-4-27b-it', lastPromptTokens: 200_000 }));
      expect(outputOf(fake.requests[0].contents[2])).toContain('1,160,000 of 1,200,000 characters were cut');
    });
  });

  it('classifies API errors for Temporal and writes nothing', async () => {
    await tmp.writeTranscript(SESSION);
    const fake = fakeModel([new ApiError({ message: 'bad request', status: 400 })]);
    const failure = await run(fake.models, input()).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: MODEL_ERROR_TYPES.badRequest, nonRetryable: true });
    expect(fake.requests).toHaveLength(1);
    await expect(tmp.store.readMessages('tx-compressed', 1)).rejects.toBeInstanceOf(TranscriptGapError);
  });
});

describe('snapshotOf', () => {
  it('takes the last snapshot block, or the reply without its scratchpad', () => {
    expect(snapshotOf('<state_snapshot>a</state_snapshot> then <state_snapshot>b</state_snapshot>')).toBe(
      '<state_snapshot>b</state_snapshot>',
    );
    expect(snapshotOf('<scratchpad>think</scratchpad>\nplain summary')).toBe('plain summary');
    expect(snapshotOf('<scratchpad>unfinished')).toBe('');
  });
});

describe('estimateRequestFits', () => {
  it('estimates the next message, reading stored function responses, against what the last prompt left', async () => {
    const responseRef = await tmp.store.putBlob(JSON.stringify({ output: 'z'.repeat(40_000) }));
    const append = [{ kind: 'functionResponse' as const, callId: 'c1', name: 'read_file', responseRef }];
    const fit = await estimateRequestFits(tmp.store, { model: 'gemini-2.5-pro', lastPromptTokens: 1_040_000, append });
    expect(fit.remainingTokens).toBe(8576);
    expect(fit.estimatedRequestTokens).toBeGreaterThan(10_000);
    expect(fit.fits).toBe(false);
    expect(
      (await estimateRequestFits(tmp.store, { model: 'gemini-2.5-pro', lastPromptTokens: 1_000_000, append })).fits,
    ).toBe(true);
  });
});
