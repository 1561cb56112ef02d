import * as path from 'node:path';
import { FakeGeminiServer, textResponse } from '../src/fake-gemini';
import { findFreePort } from '../src/server/dev-server';
import { recordOwnAddress } from '../src/runtime/own-server';
import { awaitLeftServer } from '../src/runtime/left-server';
import { spawnBin } from './processes';
import { makeWorkspace, type BenchEnv } from './env';
import { ensureGeminiCli, makeGeminiHome, runGeminiCli } from '../test/helpers/gemini-cli';

/** Both programs' cold one-turn run, ms from process start: to the answer on stdout, and to exit. */
export interface ColdResult {
  ours: { answerMs: number[]; exitMs: number[] };
  gemini: { answerMs: number[]; exitMs: number[] };
}

const PROMPT = 'Read the files one by one.';
const ANSWER = 'All files read.';

/**
 * The user's cold path: each program started from its own bin script, no server up, one home reused
 * (its embedded server's address recorded there, as after a first run), the clock stopped when the
 * process exits. Interleaved run by run against one fake Gemini server; the first pair is dropped
 * (OS caches, the cold database).
 */
export async function measureCold(env: BenchEnv, runs: number): Promise<ColdResult> {
  const entry = await ensureGeminiCli(env.log);
  const geminiHome = makeGeminiHome(path.join(env.tmp, 'cold-gemini-home'));
  const workspace = makeWorkspace(path.join(env.tmp, 'cold-ws'), 1, 1024);
  const home = path.join(env.tmp, 'cold-home');
  const address = `127.0.0.1:${await findFreePort()}`;
  recordOwnAddress(home, address);
  const fake = await FakeGeminiServer.start({ script: [] });
  const out: ColdResult = { ours: { answerMs: [], exitMs: [] }, gemini: { answerMs: [], exitMs: [] } };
  try {
    for (let i = 0; i <= runs; i++) {
      fake.load([textResponse(ANSWER)]);
      const ours = await runOurs(
        env,
        { GOOGLE_GEMINI_BASE_URL: fake.url, TEMPORAL_ADDRESS: address, DURABLE_AGENT_HOME: home },
        workspace,
      );
      // The leash stops the embedded server once `run` exits; it takes a second or two to shut down. The next
      // runs start with no server up, as a cold run does (a run started meanwhile would wait it out first).
      await awaitLeftServer(home);
      fake.load([textResponse(ANSWER)]);
      const theirs = await runGeminiCli({
        entry,
        home: geminiHome,
        baseUrl: fake.url,
        workspace,
        prompt: PROMPT,
        answer: ANSWER,
        model: 'gemini-bench',
      });
      if (i === 0) continue;
      out.ours.answerMs.push(ours.answerMs);
      out.ours.exitMs.push(ours.exitMs);
      out.gemini.answerMs.push(theirs.answerMs);
      out.gemini.exitMs.push(theirs.exitMs);
    }
  } finally {
    await fake.close();
  }
  return out;
}

async function runOurs(
  env: BenchEnv,
  vars: Record<string, string>,
  workspace: string,
): Promise<{ answerMs: number; exitMs: number }> {
  const args = ['run', PROMPT, '--approval-mode', 'yolo', '-m', 'gemini-bench', '-w', workspace];
  const proc = spawnBin(env.binPath, args, vars);
  let answerMs = NaN;
  proc.child.stdout?.on('data', () => {
    if (Number.isNaN(answerMs) && proc.stdout().includes(ANSWER)) answerMs = Date.now() - proc.startedAt;
  });
  const code = await proc.exited;
  const exitMs = Date.now() - proc.startedAt;
  if (code !== 0 || Number.isNaN(answerMs)) throw new Error(`durable-agent run exited ${code}:\n${proc.output()}`);
  return { answerMs, exitMs };
}
