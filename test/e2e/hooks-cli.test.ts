import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeGeminiServer, textResponse } from '../../src/fake-gemini';
import { createSandbox, holdPort, killAllCli } from '../helpers/cli';

let fake: FakeGeminiServer;
afterAll(async () => {
  await fake?.close();
  await killAllCli();
});

/** A bad settings file stops `run` with exit 52 and a message naming the file, before anything starts. */
test.each([
  ['workspace', 'not json {', /settings file error: .*\.durable-agent\/settings\.json: not valid JSON/],
  [
    'user',
    JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: '' }] }] } }),
    /settings file error: .*settings\.json: hooks\.BeforeTool\.0\.hooks\.0\.command: command must not be empty/,
  ],
  [
    'user',
    JSON.stringify({ security: { environmentVariableRedaction: { allowed: 'FOO_TOKEN' } } }),
    /settings file error: .*settings\.json: security\.environmentVariableRedaction\.allowed/,
  ],
])('a bad %s settings file exits 52 and names the file', async (where, content, message) => {
  fake = fake ?? (await FakeGeminiServer.start({ script: [textResponse('never asked')] }));
  // Held for the test: anything that got as far as Temporal would probe this address first.
  const held = await holdPort();
  const box = createSandbox(`settings-${where}`, held.address);
  const file =
    where === 'workspace'
      ? path.join(box.workspace, '.durable-agent', 'settings.json')
      : path.join(box.home, 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  // Only a trusted workspace's own settings are read.
  const result = await box
    .run(['run', 'hi', '-w', box.workspace], {
      env: { GOOGLE_GEMINI_BASE_URL: fake.url, DURABLE_AGENT_TRUST_WORKSPACE: '1' },
    })
    .finally(() => held.release());
  expect(result.code).toBe(52);
  expect(result.stderr).toMatch(message);
  expect(result.stdout).toBe('');
  expect(fake.requests).toHaveLength(0);
  expect(held.connections()).toBe(0);
  expect(fs.existsSync(path.join(box.home, 'temporal'))).toBe(false);
});
