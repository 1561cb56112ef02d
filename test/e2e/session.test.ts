import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { agentSessionWorkflow } from '../../src/workflows/session-workflow';
import {
  statusQuery,
  toolConfirmationSignal,
  type PromptResult,
  closeSessionSignal,
  sendMessageUpdate,
  sessionStatusQuery,
  type SessionInput,
} from '../../src/workflows/api';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { promptResultOnceStarted } from '../helpers/session-prompts';
import { withoutSessionContext } from '../helpers/sent-parts';

type Sent = { contents: { role: string; parts: { text?: string }[] }[] };

let h: Harness;
beforeAll(async () => {
  h = await createHarness('session');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

function defaults(over: Partial<SessionInput['defaults']> = {}): SessionInput['defaults'] {
  return {
    workspace: h.workspace({ 'a.txt': 'A' }),
    model: 'gemini-test-model',
    approvalMode: 'yolo',
    maxTurns: 20,
    modelRetryInitialMs: 50,
    ...over,
  };
}

function resultOf(promptId: string): Promise<PromptResult> {
  return promptResultOnceStarted(h.env.client, promptId);
}

async function startSession(over: Partial<SessionInput['defaults']> = {}) {
  const id = `session-${Date.now()}-${Math.random().toString(16).slice(2, 6)}`;
  return h.env.client.workflow.start(agentSessionWorkflow, {
    taskQueue: h.taskQueue,
    workflowId: id,
    args: [{ defaults: defaults(over) }],
  });
}

test('messages run in order as child prompts that continue one conversation', async () => {
  h.fake.load([textResponse('First answer.'), textResponse('Second answer.')]);
  const session = await startSession();
  const first = await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'first question' }] });
  const second = await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'second question' }] });
  expect([first, second]).toEqual([`${session.workflowId}-p1`, `${session.workflowId}-p2`]);
  const r1 = await resultOf(first);
  const r2 = await resultOf(second);
  expect([r1.response, r2.response]).toEqual(['First answer.', 'Second answer.']);
  const sent = (h.fake.requests[1].body as Sent).contents.map(
    (c) => `${c.role}:${withoutSessionContext(c.parts)[0].text}`,
  );
  expect(sent).toEqual(['user:first question', 'model:First answer.', 'user:second question']);
  expect(r2.transcript).toEqual({ id: `session/${session.workflowId}`, length: 4 });
  await session.signal(closeSessionSignal);
  await session.result();
});

test('proceed_always granted in one prompt holds for the session’s next prompts', async () => {
  h.fake.load([
    // `always` on `echo run one` allows `echo run ...` (the command and its first argument).
    functionCallResponse({ name: 'run_shell_command', args: { command: 'echo run one' } }),
    textResponse('ran one'),
    functionCallResponse({ name: 'run_shell_command', args: { command: 'echo run two' } }),
    textResponse('ran two'),
  ]);
  const session = await startSession({ approvalMode: 'default' });
  const first = await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'run one' }] });
  const prompt = h.env.client.workflow.getHandle(first);
  let pending: string | undefined;
  for (let i = 0; i < 200 && !pending; i++) {
    pending = (await prompt.query(statusQuery).catch(() => undefined))?.pendingApprovals[0]?.callId;
    if (!pending) await new Promise((r) => setTimeout(r, 50));
  }
  await prompt.signal(toolConfirmationSignal, { callId: pending!, outcome: 'proceed_always' });
  await prompt.result();
  const second = await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'run two' }] });
  const r2 = await resultOf(second);
  expect(r2.response).toBe('ran two');
  // The session counts a prompt once it has handled the child's completion, a moment after the result.
  let prompts = 0;
  for (let i = 0; i < 100 && prompts < 2; i++) {
    prompts = (await session.query(sessionStatusQuery)).prompts;
    if (prompts < 2) await new Promise((r) => setTimeout(r, 50));
  }
  expect(prompts).toBe(2);
  await session.signal(closeSessionSignal);
});

test('an empty message is refused at once and the session goes on', async () => {
  h.fake.load([textResponse('fine')]);
  const session = await startSession();
  await expect(session.executeUpdate(sendMessageUpdate, { args: [{ text: '  ' }] })).rejects.toThrow();
  const id = await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'real' }] });
  expect((await resultOf(id)).response).toBe('fine');
  await session.signal(closeSessionSignal);
});

test(
  'a steering message reaches the running prompt after its current tool results, before the next model ' + 'call',
  async () => {
    h.fake.load([
      functionCallResponse({ name: 'run_shell_command', args: { command: 'sleep 1; echo slow' } }),
      textResponse('adjusted'),
    ]);
    const session = await startSession();
    const id = await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'do the slow thing' }] });
    const prompt = h.env.client.workflow.getHandle(id);
    for (let i = 0; i < 200; i++) {
      const status = await prompt.query(statusQuery).catch(() => undefined);
      if (status?.toolCalls.some((c) => c.status === 'executing')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(
      await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'use the other directory', steer: true }] }),
    ).toBe(id);
    const result = await resultOf(id);
    expect(result.response).toBe('adjusted');
    const last = (
      h.fake.requests[1].body as {
        contents: { role: string; parts: { text?: string; functionResponse?: unknown }[] }[];
      }
    ).contents.at(-1)!;
    expect(last.parts[0].functionResponse).toBeDefined();
    expect(last.parts.at(-1)!.text).toContain('use the other directory');
    await session.signal(closeSessionSignal);
  },
);
