import { errorLine, textResponse } from '../../src/fake-gemini';
import { eventually, expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { closeTestEnv, getTestEnv, TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();
afterAll(() => closeTestEnv());

/** The ids the visibility store lists for `query`, among `ids`. */
async function listed(query: string, ids: string[]): Promise<string[]> {
  const { client } = await getTestEnv();
  const found: string[] = [];
  const idList = ids.map((id) => `'${id}'`).join(', ');
  for await (const w of client.workflow.list({ query: `WorkflowId IN (${idList}) AND ${query}` }))
    found.push(w.workflowId);
  return found.sort();
}

test("DurableAgentStatus names how a prompt ended, so 'running' lists running prompts alone", async () => {
  const box = sandbox('search-status', process.env[TEST_ENV_VARS.address]);
  const run = async (lines: Parameters<typeof box.script>[0]) => {
    const result = await box.run(['run', 'hi', '--fake-responses', box.script(lines), '-w', box.workspace]);
    return { result, id: /prompt (prompt-\S+) started/.exec(result.stderr)?.[1] as string };
  };
  const done = await run([textResponse('done')]);
  expectExit(done.result, 0);
  const failed = await run([errorLine(400, 'INVALID_ARGUMENT', 'bad request')]);
  expectExit(failed.result, 1);
  const ids = [done.id, failed.id];
  await eventually(
    async () => (await listed("DurableAgentStatus = 'completed'", ids)).join() === done.id,
    30_000,
    'the completed prompt listed as completed',
  );
  await eventually(
    async () => (await listed("DurableAgentStatus = 'failed'", ids)).join() === failed.id,
    30_000,
    'the failed prompt listed as failed',
  );
  expect(await listed("DurableAgentStatus = 'running'", ids)).toEqual([]);
});
