import { WorkflowUpdateFailedError } from '@temporalio/client';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { agentSessionWorkflow } from '../../src/workflows/session-workflow';
import { closeSessionSignal, sendMessageUpdate, sessionStatusQuery } from '../../src/workflows/api';
import { lastRewindQuery, rewindConversationUpdate } from '../../src/workflows/rewind-api';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';
import { askSession, promptResultOnceStarted } from '../helpers/session-prompts';
import { withoutSessionContext } from '../helpers/sent-parts';

type Sent = {
  contents: { role: string; parts: { text?: string; functionCall?: { name: string }; functionResponse?: object }[] }[];
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness('session-rewind');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

async function startSession() {
  const id = `rewind-${Date.now()}-${Math.random().toString(16).slice(2, 6)}`;
  return h.env.client.workflow.start(agentSessionWorkflow, {
    taskQueue: h.taskQueue,
    workflowId: id,
    args: [
      {
        defaults: {
          workspace: h.workspace({ 'a.txt': 'A' }),
          model: 'gemini-test-model',
          approvalMode: 'yolo',
          maxTurns: 20,
          modelRetryInitialMs: 50,
        },
      },
    ],
  });
}

type Session = Awaited<ReturnType<typeof startSession>>;

const ask = (session: Session, text: string) => askSession(h.env.client, session.workflowId, text);

/** What the newest request sent, one line per message: role and its text, or the call or response it held. */
function lastSent(): string[] {
  const body = h.fake.requests.at(-1)?.body as Sent;
  return body.contents.map((c) => {
    const part = withoutSessionContext(c.parts)[0];
    return `${c.role}:${part.text ?? (part.functionCall ? `call ${part.functionCall.name}` : 'response')}`;
  });
}

test("a rewound session's next prompt starts from the cut, and undo puts the whole conversation back", async () => {
  h.fake.load([
    functionCallResponse({ name: 'write_file', args: { file_path: 'b.txt', content: 'B' } }),
    textResponse('Wrote b.'),
    textResponse('Second answer.'),
    textResponse('Third answer.'),
    textResponse('Fourth answer.'),
  ]);
  const session = await startSession();
  await ask(session, 'write b');
  await ask(session, 'second question');
  const id = `session/${session.workflowId}`;
  // Turn 1 left the call's model message at index 1: the cut keeps it and its response.
  const rewound = await session.executeUpdate(rewindConversationUpdate, {
    args: [{ to: { id, length: 2 }, turn: 1, checkpoint: 'sha256:before' }],
  });
  expect(rewound.before).toEqual({ id, length: 6 });
  expect(rewound.transcript).toEqual({ id: expect.stringContaining(`${id}/rewound-`), length: 3 });
  await ask(session, 'third question');
  expect(lastSent()).toEqual(['user:write b', 'model:call write_file', 'user:response', 'user:third question']);
  expect(await session.query(lastRewindQuery)).toEqual({
    transcript: { id, length: 6 },
    checkpoint: 'sha256:before',
    turn: 1,
  });

  const undone = await session.executeUpdate(rewindConversationUpdate, { args: [{ undo: true }] });
  expect(undone.undone?.checkpoint).toBe('sha256:before');
  await ask(session, 'fourth question');
  expect(lastSent()).toEqual([
    'user:write b',
    'model:call write_file',
    'user:response',
    'model:Wrote b.',
    'user:second question',
    'model:Second answer.',
    'user:fourth question',
  ]);
  // The original transcript was never rewritten: the rewound prompt wrote to its own copy.
  expect(await h.store.readMessages(id, 8)).toHaveLength(8);
  await session.signal(closeSessionSignal);
  await session.result();
  await maybeRecordHistory(h, session.workflowId, 'session-rewind');
});

test('a bad rewind is refused with a clear reason and changes nothing', async () => {
  h.fake.load([textResponse('One.')]);
  const session = await startSession();
  await ask(session, 'one');
  const refusal = (payload: unknown) =>
    session.executeUpdate(rewindConversationUpdate, { args: [payload] }).then(
      () => 'accepted',
      (err: Error) => (err instanceof WorkflowUpdateFailedError ? String(err.cause?.message) : err.message),
    );
  expect(await refusal({ undo: true })).toMatch(/nothing to undo/);
  expect(await refusal({ to: { id: 'x', length: -1 } })).toMatch(/to\.length/);
  expect(await refusal({ to: { id: 'x', length: 1 }, extra: 1 })).toMatch(/extra|unrecognized/i);
  expect(await refusal('rewind')).toMatch(/rewindConversation/);
  expect(await session.query(sessionStatusQuery)).toMatchObject({ transcriptLength: 2 });
  expect(await session.query(lastRewindQuery)).toBeNull();
  await session.signal(closeSessionSignal);
  await session.result();
});

test('a rewind is refused while a prompt of the session runs', async () => {
  h.fake.load([{ ...textResponse('Slow.'), delayMs: 3000 }]);
  const session = await startSession();
  const promptId = await session.executeUpdate(sendMessageUpdate, { args: [{ text: 'slow' }] });
  const refused = session
    .executeUpdate(rewindConversationUpdate, { args: [{ to: { id: 'x', length: 0 } }] })
    .catch((err: WorkflowUpdateFailedError) => String(err.cause?.message));
  expect(await refused).toMatch(new RegExp(`running \\(${promptId}\\).*--cancel`));
  await promptResultOnceStarted(h.env.client, promptId);
  await session.signal(closeSessionSignal);
  await session.result();
});
