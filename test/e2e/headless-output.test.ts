/**
 * Issue 25's headless fixes through the binary, as a script written for Gemini CLI 0.61.0 meets them:
 * `-o json`'s `response` is the final answer. Run `npm run build` first: the binary runs `dist/`.
 */
import { streamLine, textResponse } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();
const address = () => process.env[TEST_ENV_VARS.address];

/** One model turn that says something and calls a tool in the same answer. */
function textAndCall(text: string, name: string, args: Record<string, unknown>) {
  const parts = [{ text }, { functionCall: { name, args } }];
  return streamLine([{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] }]);
}

test('`-o json` response is the text after the last tool call, not every turn joined', async () => {
  const box = sandbox('json-answer', address());
  const script = box.script([
    textAndCall('Let me look first.', 'list_directory', { dir_path: '.' }),
    textAndCall('One more look.', 'glob', { pattern: '*' }),
    textResponse('The folder is empty.'),
  ]);
  const result = await box.run(['-p', 'what is here?', '-o', 'json', '--fake-responses', script]);
  expectExit(result, 0);
  expect((JSON.parse(result.stdout) as { response: string }).response).toBe('The folder is empty.');
});

test('`-o json` response of an answer without tool calls is that answer', async () => {
  const box = sandbox('json-plain', address());
  const script = box.script([textResponse('Hello.')]);
  const result = await box.run(['-p', 'hi', '-o', 'json', '--fake-responses', script]);
  expectExit(result, 0);
  expect((JSON.parse(result.stdout) as { response: string }).response).toBe('Hello.');
});
