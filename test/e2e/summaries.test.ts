import { defaultPayloadConverter } from '@temporalio/common';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { closeTestEnv } from '../helpers/temporal-env';
import { sendToSession } from '../../src/client';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('summaries');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/**
 * What the Temporal Web UI shows of a prompt at a glance: the workflow's summary is the prompt's first
 * line, and each activity's summary names its model, or its tool and the tool's main argument.
 */
test("the workflow's summary is the prompt's first line; model and tool activities carry their own", async () => {
  const workspace = h.workspace();
  const run = await h.run(
    [functionCallResponse({ name: 'run_shell_command', args: { command: 'echo hi' } }), textResponse('Said hi.')],
    { prompt: '\n  Say hi from the shell  \nand nothing else', workspace, approvalMode: 'yolo' },
  );
  expect(run.result?.response).toBe('Said hi.');
  const handle = h.env.client.workflow.getHandle(run.workflowId);
  expect(await (await handle.describe()).staticSummary()).toBe('Say hi from the shell');
  const summaries: Record<string, string[]> = {};
  for (const event of (await handle.fetchHistory()).events ?? []) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    const summary = event.userMetadata?.summary;
    if (!scheduled || !summary) continue;
    const type = scheduled.activityType?.name ?? '';
    (summaries[type] ??= []).push(defaultPayloadConverter.fromPayload<string>(summary));
  }
  expect(summaries.callModel).toEqual(['gemini-test-model', 'gemini-test-model']);
  expect(summaries.runTool).toEqual(['run_shell_command: echo hi']);
});

test('a session, the prompts it runs and a sub-agent each carry a summary; prompts carry the listing memo', async () => {
  const workspace = h.workspace({ 'a.txt': 'A' });
  h.fake.load([
    functionCallResponse({ name: 'invoke_agent', args: { agent_name: 'generalist', prompt: 'read a.txt\nthen stop' } }),
    functionCallResponse({ name: 'complete_task', args: { result: 'A' } }),
    textResponse('It says A.'),
  ]);
  const sessionId = `summaries-session-${Date.now()}`;
  const defaults = { workspace, model: 'gemini-test-model', approvalMode: 'yolo' as const, maxTurns: 10 };
  const promptId = await sendToSession(h.env.client, sessionId, 'What does a.txt say?\nBe brief.', {
    taskQueue: h.taskQueue,
    defaults,
  });
  const prompt = h.env.client.workflow.getHandle(promptId);
  expect((await prompt.result()).response).toBe('It says A.');
  const session = h.env.client.workflow.getHandle(sessionId);
  expect(await (await session.describe()).staticSummary()).toBe(`session in ${workspace}`);
  const described = await prompt.describe();
  expect(await described.staticSummary()).toBe('What does a.txt say?');
  expect(described.memo).toEqual({ summary: 'What does a.txt say?', workspace });
  const subagent = h.env.client.workflow.getHandle(`${promptId}--call_1_0`);
  expect(await (await subagent.describe()).staticSummary()).toBe('generalist: read a.txt');
  await session.terminate('test over');
});
