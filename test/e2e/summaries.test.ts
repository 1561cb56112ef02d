import { defaultPayloadConverter } from '@temporalio/common';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { closeTestEnv } from '../helpers/temporal-env';

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
