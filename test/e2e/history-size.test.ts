import { temporal } from '@temporalio/proto';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';

const { EventType } = temporal.api.enums.v1;
type Body = {
  systemInstruction?: unknown;
  tools?: { functionDeclarations: { name: string; description?: string }[] }[];
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness('frame');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** The inputs of the prompt's callModel activities, as its history holds them. */
async function callModelInputs(workflowId: string): Promise<Record<string, unknown>[]> {
  const history = await h.env.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? [])
    .filter(
      (e) =>
        e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED &&
        e.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel',
    )
    .map(
      (e) =>
        JSON.parse(
          Buffer.from(e.activityTaskScheduledEventAttributes!.input!.payloads![0].data!).toString('utf8'),
        ) as Record<string, unknown>,
    );
}

test('the request frame (tools, invoke_agent with its agents) is sent once per run, then by reference', async () => {
  const workspace = h.workspace({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
  const script = [
    functionCallResponse({ name: 'read_file', args: { file_path: 'a.txt' } }),
    functionCallResponse({ name: 'read_file', args: { file_path: 'b.txt' } }),
    textResponse('Read both.'),
  ];
  const run = await h.run(script, { workspace });
  expect(run.result).toMatchObject({ terminateReason: 'completed', turns: 3 });
  const inputs = await callModelInputs(run.workflowId);
  expect(inputs).toHaveLength(3);
  expect(inputs[0]).toMatchObject({
    workspace,
    extraDeclarations: [expect.objectContaining({ name: 'invoke_agent' })],
  });
  expect(inputs[0]).not.toHaveProperty('frameRef');
  for (const later of inputs.slice(1)) {
    expect(later.frameRef).toMatch(/^sha256:/);
    expect(later).not.toHaveProperty('extraDeclarations');
    expect(later).not.toHaveProperty('toolNames');
  }
  // The model sees the same system prompt and declarations on every request.
  const bodies = h.fake.requests.map((r) => r.body as Body);
  expect(bodies).toHaveLength(3);
  for (const body of bodies.slice(1)) {
    expect(body.systemInstruction).toEqual(bodies[0].systemInstruction);
    expect(body.tools).toEqual(bodies[0].tools);
  }
  expect(JSON.stringify(bodies[2].tools)).toContain('codebase_investigator');
});

test('read-only tools run as local activities (one marker each), other tools as activities', async () => {
  const workspace = h.workspace({ 'a.txt': 'alpha\n' });
  const script = [
    functionCallResponse({ name: 'read_file', args: { file_path: 'a.txt' } }),
    functionCallResponse({ name: 'write_file', args: { file_path: 'b.txt', content: 'beta\n' } }),
    textResponse('Done.'),
  ];
  const run = await h.run(script, { workspace, approvalMode: 'yolo' });
  expect(run.result).toMatchObject({ terminateReason: 'completed', turns: 3 });
  const events = (await h.env.client.workflow.getHandle(run.workflowId).fetchHistory()).events ?? [];
  const scheduled = events
    .filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
    .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name);
  // The write takes a workspace checkpoint just before it and one at its turn's end; the read takes none.
  expect(scheduled).toEqual([
    'loadMemory',
    'callModel',
    'callModel',
    'checkpointWorkspace',
    'runTool',
    'checkpointWorkspace',
    'callModel',
  ]);
  const markers = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
  expect(markers).toHaveLength(1);
  expect(run.events).toContainEqual(
    expect.objectContaining({ type: 'tool_call_response', name: 'read_file', ok: true }),
  );
  expect(h.fake.requests[1].body).toMatchObject({
    contents: expect.arrayContaining([
      expect.objectContaining({
        role: 'user',
        parts: [
          expect.objectContaining({
            functionResponse: expect.objectContaining({ response: { output: expect.stringContaining('alpha') } }),
          }),
        ],
      }),
    ]),
  });
});
