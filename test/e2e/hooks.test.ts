import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness, type PromptRun } from '../helpers/agent-harness';
import { answer, hooksOn, saveAndAnswer, type SentRequest } from '../helpers/hook-config';
import { fenceUntrusted } from '../../src/core/untrusted';
import { withoutSessionContext } from '../helpers/sent-parts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('hooks');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const sent = (i: number) => h.fake.requests[i].body as SentRequest;
const lastTexts = (i: number) => withoutSessionContext(sent(i).contents.at(-1)!.parts).map((p) => p.text);
const ofType = (run: PromptRun, type: string) =>
  run.events.filter((e) => e.type === type) as unknown as Record<string, unknown>[];
const read = (ws: string, file: string) => JSON.parse(fs.readFileSync(path.join(ws, file), 'utf8'));

describe('BeforeAgent', () => {
  test(
    'two hooks add their context, joined and escaped, to the prompt; each reads the hook input on ' + 'stdin',
    async () => {
      const ws = h.workspace();
      const hooks = hooksOn('BeforeAgent', [
        saveAndAnswer('in.json', { hookSpecificOutput: { additionalContext: 'branch <main>' } }),
        answer({ hookSpecificOutput: { additionalContext: 'tests pass' } }),
      ]);
      const run = await h.run([textResponse('ok')], { workspace: ws, hooks });
      expect(run.result?.response).toBe('ok');
      expect(lastTexts(0)).toEqual([
        'do the task',
        fenceUntrusted('hook', '<hook_context>branch &lt;main&gt;\ntests pass</hook_context>'),
      ]);
      expect(read(ws, 'in.json')).toMatchObject({
        hook_event_name: 'BeforeAgent',
        prompt: 'do the task',
        cwd: ws,
        session_id: run.workflowId,
      });
      expect(ofType(run, 'hook')).toEqual([
        expect.objectContaining({ event: 'BeforeAgent', hooks: 2, decision: 'allow' }),
      ]);
    },
  );

  test('stop ends the prompt before any model call, keeping the user message', async () => {
    const run = await h.run([], {
      hooks: hooksOn('BeforeAgent', [answer({ continue: false, stopReason: 'not today' })]),
    });
    expect(run.result?.terminateReason).toBe('stopped');
    expect(h.fake.requests).toHaveLength(0);
    expect(ofType(run, 'agent_execution_stopped')[0]).toMatchObject({ reason: 'not today' });
    expect(run.result?.transcript?.length).toBe(1);
  });

  test('block (exit 2, stderr as reason) ends the prompt and drops the user message', async () => {
    const run = await h.run([], { hooks: hooksOn('BeforeAgent', ['echo "prompts are frozen" >&2; exit 2']) });
    expect(run.result?.terminateReason).toBe('stopped');
    expect(h.fake.requests).toHaveLength(0);
    expect(ofType(run, 'agent_execution_blocked')[0]).toMatchObject({ reason: 'prompts are frozen' });
    expect(run.result?.transcript?.length).toBe(0);
  });
});

describe('AfterAgent', () => {
  test(
    'block continues the prompt with the reason as a new message; BeforeAgent fires again for it, AfterAgent ' +
      'once per ending',
    async () => {
      const ws = h.workspace();
      const once =
        `if [ -f "$GEMINI_PROJECT_DIR/once" ]; then (cat; echo) >> "$GEMINI_PROJECT_DIR/after.jsonl"; ` +
        (`else touch "$GEMINI_PROJECT_DIR/once"; (cat; echo) >> "$GEMINI_PROJECT_DIR/after.jsonl"; ` +
          `${answer({ decision: 'block', reason: 'Also list the tests.' })}; fi`);
      const hooks = { ...hooksOn('AfterAgent', [once]), ...hooksOn('BeforeAgent', ['true']) };
      const run = await h.run(
        [
          functionCallResponse({ name: 'list_directory', args: { dir_path: '.' } }),
          textResponse('first'),
          textResponse('second'),
        ],
        { workspace: ws, hooks },
      );
      expect(run.result?.response).toBe('firstsecond');
      expect(lastTexts(2)).toEqual(['Also list the tests.']);
      const after = fs
        .readFileSync(path.join(ws, 'after.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(after.map((a) => [a.prompt, a.prompt_response, a.stop_hook_active])).toEqual([
        ['do the task', 'first', false],
        ['Also list the tests.', 'firstsecond', true],
      ]);
      expect(ofType(run, 'hook').map((e) => e.event)).toEqual([
        'BeforeAgent',
        'AfterAgent',
        'BeforeAgent',
        'AfterAgent',
      ]);
      await maybeRecordHistory(h, run.workflowId, 'hooks-after-agent-block');
    },
  );

  test('stop with clearContext ends the prompt and leaves the session a fresh, empty conversation', async () => {
    const run = await h.run([textResponse('done')], {
      hooks: hooksOn('AfterAgent', [
        answer({ continue: false, stopReason: 'reset', hookSpecificOutput: { clearContext: true } }),
      ]),
    });
    expect(run.result?.terminateReason).toBe('stopped');
    expect(run.result?.transcript).toEqual({ id: `${run.workflowId}/cleared-1`, length: 0 });
  });
});

describe('BeforeModel, BeforeToolSelection, AfterModel', () => {
  test('BeforeModel sees the request and changes its settings', async () => {
    const ws = h.workspace();
    await h.run([textResponse('ok')], {
      workspace: ws,
      hooks: hooksOn('BeforeModel', [
        saveAndAnswer('req.json', { hookSpecificOutput: { llm_request: { config: { temperature: 0.125 } } } }),
      ]),
    });
    expect(sent(0).generationConfig?.temperature).toBe(0.125);
    expect(read(ws, 'req.json').llm_request).toMatchObject({
      model: 'gemini-test-model',
      messages: [{ role: 'user', content: 'do the task' }],
    });
  });

  test('BeforeModel block with a synthetic response answers without asking the model', async () => {
    const llm_response = {
      candidates: [{ content: { role: 'model', parts: ['from the hook'] }, finishReason: 'STOP' }],
    };
    const run = await h.run([], {
      hooks: hooksOn('BeforeModel', [
        answer({ decision: 'block', reason: 'cached', hookSpecificOutput: { llm_response } }),
      ]),
    });
    expect(run.result?.response).toBe('from the hook');
    expect(h.fake.requests).toHaveLength(0);
  });

  test('BeforeModel stop ends the prompt without the request', async () => {
    const run = await h.run([], { hooks: hooksOn('BeforeModel', [answer({ continue: false, stopReason: 'budget' })]) });
    expect(run.result?.terminateReason).toBe('stopped');
    expect(h.fake.requests).toHaveLength(0);
  });

  test('BeforeToolSelection restricts the declared tools, or removes them all with NONE', async () => {
    await h.run([textResponse('ok')], {
      hooks: hooksOn('BeforeToolSelection', [
        answer({ hookSpecificOutput: { toolConfig: { mode: 'AUTO', allowedFunctionNames: ['read_file', 'glob'] } } }),
      ]),
    });
    expect(
      sent(0)
        .tools?.[0].functionDeclarations?.map((d) => d.name)
        .sort(),
    ).toEqual(['glob', 'read_file']);
    await h.run([textResponse('ok')], {
      hooks: hooksOn('BeforeToolSelection', [answer({ hookSpecificOutput: { toolConfig: { mode: 'NONE' } } })]),
    });
    expect(sent(0).tools?.[0]?.functionDeclarations ?? []).toEqual([]);
  });

  test('AfterModel replaces the response, in the result and in the transcript', async () => {
    const ws = h.workspace();
    const llm_response = { candidates: [{ content: { role: 'model', parts: ['replaced'] } }] };
    const run = await h.run([textResponse('original')], {
      workspace: ws,
      hooks: hooksOn('AfterModel', [saveAndAnswer('am.json', { hookSpecificOutput: { llm_response } })]),
    });
    expect(run.result?.response).toBe('replaced');
    expect(read(ws, 'am.json').llm_response.text).toBe('original');
    const messages = await h.store.readMessages(run.result!.transcript!.id, 2);
    expect(messages[1].parts).toEqual([{ text: 'replaced' }]);
  });
});
