import * as fs from 'node:fs';
import * as path from 'node:path';
import { textResponse } from '../../src/fake-gemini';
import { agentSessionWorkflow } from '../../src/workflows/session-workflow';
import type { PromptResult } from '../../src/workflows/api';
import { eventually } from '../helpers/cli';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { answer, hooksOn, type SentRequest } from '../helpers/hook-config';
import { closeSessionSignal, sendMessageUpdate, sessionStatusQuery } from '../../src/workflows/api';
import { fenceUntrusted } from '../../src/core/untrusted';
import { withoutSessionContext } from '../helpers/sent-parts';

/** SessionStart and SessionEnd of a session workflow (a run outside a session is in hooks-tools). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness('hooks-session');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** The hook log's complete lines: a hook may still be writing the last one while the test reads. */
const log = (ws: string) => {
  const file = path.join(ws, 'session.jsonl');
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  return text
    .split('\n')
    .slice(0, -1)
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
};

test(
  'a session fires SessionStart when it starts (its context reaching the first prompt only) and SessionEnd ' +
    'when it is closed',
  async () => {
    const ws = h.workspace();
    const hooks = {
      ...hooksOn('SessionStart', [
        `(cat; echo) >> "$GEMINI_PROJECT_DIR/session.jsonl"; ` +
          `${answer({ hookSpecificOutput: { additionalContext: 'on call: ana' } })}`,
      ]),
      ...hooksOn('SessionEnd', ['(cat; echo) >> "$GEMINI_PROJECT_DIR/session.jsonl"']),
    };
    h.fake.load([textResponse('First.'), textResponse('Second.')]);
    const id = `hooked-session-${Date.now()}`;
    const session = await h.env.client.workflow.start(agentSessionWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: id,
      args: [{ defaults: { workspace: ws, model: 'gemini-test-model', approvalMode: 'yolo', maxTurns: 5, hooks } }],
    });
    // SessionStart fires as the session starts, before any message.
    const started = await eventually(() => log(ws)[0], 30_000, 'SessionStart to run');
    expect(started).toMatchObject({ hook_event_name: 'SessionStart', source: 'startup', session_id: id, cwd: ws });

    const first = await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'first question' }] });
    await eventually(
      () =>
        h.env.client.workflow
          .getHandle(first)
          .describe()
          .then(
            () => true,
            () => false,
          ),
      30_000,
      `prompt ${first} to start`,
    );
    expect(((await h.env.client.workflow.getHandle(first).result()) as PromptResult).response).toBe('First.');
    const second = await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'second question' }] });
    await eventually(
      () =>
        h.env.client.workflow
          .getHandle(second)
          .describe()
          .then(
            () => true,
            () => false,
          ),
      30_000,
      `prompt ${second} to start`,
    );
    await h.env.client.workflow.getHandle(second).result();
    const texts = (i: number) =>
      (h.fake.requests[i].body as SentRequest).contents.map((c) =>
        withoutSessionContext(c.parts)
          .map((p) => p.text)
          .join('|'),
      );
    expect(texts(0)).toEqual([`${fenceUntrusted('hook', '<hook_context>on call: ana</hook_context>')}|first question`]);
    expect(texts(1).at(-1)).toBe('second question');
    expect(log(ws).map((l) => l.hook_event_name)).toEqual(['SessionStart']);

    await eventually(
      async () => (await session.query(sessionStatusQuery)).prompts === 2,
      30_000,
      'the session to count both prompts',
    );
    await session.signal(closeSessionSignal);
    await session.result();
    expect(log(ws).map((l) => [l.hook_event_name, l.source ?? l.reason, l.session_id])).toEqual([
      ['SessionStart', 'startup', id],
      ['SessionEnd', 'exit', id],
    ]);
  },
);
