import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Io } from './output';
import { DEFAULT_MODEL } from '../core/models';
import { runCommand } from './run';

export const DEMO_PROMPT =
  'The test in this project fails (node test.js). Find out why, fix it, and check that it passes.';

/**
 * The quick start's main job: a real prompt on the embedded server in a fresh copy of a small
 * project. With GEMINI_API_KEY it asks Gemini; without, the shipped script plays the model's part
 * through the fake Gemini server, so the same code path runs end to end either way.
 */
export async function demoCommand(config: Config, io: Io, logger: Logger): Promise<number> {
  const demoDir = path.resolve(__dirname, '..', '..', 'demo');
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'durable-agent-demo-'));
  fs.cpSync(path.join(demoDir, 'workspace'), workspace, { recursive: true });
  const scripted = !config.geminiApiKey;
  io.stderr.write(`demo workspace: ${workspace}\n`);
  if (scripted) io.stderr.write('GEMINI_API_KEY is not set: the model is played by demo/fix-the-test.jsonl.\n');
  io.stderr.write(`prompt: ${DEMO_PROMPT}\n`);
  return runCommand(
    config,
    {
      prompt: DEMO_PROMPT,
      workspace,
      approvalMode: 'yolo',
      model: DEFAULT_MODEL,
      maxTurns: 20,
      detach: false,
      output: 'text',
      fakeResponses: scripted ? { path: path.join(demoDir, 'fix-the-test.jsonl'), strict: true } : undefined,
    },
    io,
    logger,
  );
}
