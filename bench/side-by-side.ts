import * as path from 'node:path';
import { type ScriptLine } from '../src/fake-gemini';
import { startPrompt } from '../src/client';
import { makeWorkspace, type BenchEnv, type BenchServer } from './env';
import { openRig, scriptFor, benchInput, type Rig } from './rig';
import { ensureGeminiCli, GEMINI_CLI_VERSION, makeGeminiHome, runGeminiCli } from '../test/helpers/gemini-cli';
import { median } from './stats';

/** One figure for both programs, measured in the same run against the same fake server. */
export interface Pair {
  ours: number[];
  gemini: number[];
}

export interface SideBySideResult {
  geminiCliVersion: string;
  longTurns: number;
  /** Marginal cost of a turn (model call + read_file), ms: (T(N) − T(1)) / (N − 1) per run pair. */
  perTurnMs: Pair;
  /** Sum of request body bytes the model received over one prompt of `bytesTurns` turns. */
  requestBytes: { ours: number; gemini: number; oursRequests: number; geminiRequests: number };
  bytesTurns: number;
  bytesFileSize: number;
}

/** A realistic model: its token counts follow the request's size, so masking and compression act. */
const MODEL = 'gemini-2.5-flash';
/** The compression summary, as Gemini CLI and ours ask for it (a plain generateContent call). */
const SUMMARY: ScriptLine = {
  method: 'generateContent',
  response: {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [{ text: '<state_snapshot>Files f1.txt and on were read.</state_snapshot>' }],
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 20, totalTokenCount: 30 },
  },
};

/**
 * durable-agent beside Gemini CLI (pinned, installed into the user's cache folder), interleaved run by
 * run so that load on the machine hits both alike; both talk to one fake Gemini server over HTTP and
 * work in one workspace.
 */
export async function measureSideBySide(
  env: BenchEnv,
  server: BenchServer,
  n: { longTurns: number; runs: number; bytesTurns: number },
): Promise<SideBySideResult> {
  const entry = await ensureGeminiCli(env.log);
  const home = makeGeminiHome(path.join(env.tmp, 'gemini-home'));
  const rig = await openRig(env, server, 'side-by-side', 1024, {}, { strict: false, usageFromRequest: true });
  try {
    const gemini = (turns: number, workspace = rig.workspace, model = 'gemini-bench') =>
      runGeminiCli({
        entry,
        home,
        baseUrl: rig.fake.url,
        workspace,
        prompt: 'Read the files one by one.',
        model,
        answer: 'All files read.',
      });
    const script = (lines: ScriptLine[]) => rig.fake.load(lines);
    await rig.run(3); // warm-up of the worker, and of Gemini CLI's files in the OS cache
    script(scriptFor(3));
    await gemini(3);
    const perTurnMs: Pair = { ours: [], gemini: [] };
    for (let i = 0; i < n.runs; i++) {
      const oursOne = (await rig.run(1)).ms;
      perTurnMs.ours.push(((await rig.run(n.longTurns)).ms - oursOne) / (n.longTurns - 1));
      script(scriptFor(1));
      const geminiOne = (await gemini(1)).answerMs;
      script(scriptFor(n.longTurns));
      perTurnMs.gemini.push(((await gemini(n.longTurns)).answerMs - geminiOne) / (n.longTurns - 1));
    }
    const bytesFileSize = 16 * 1024;
    const bigWorkspace = makeWorkspace(path.join(env.tmp, 'side-by-side-big'), 100, bytesFileSize);
    const requestBytes = await measureRequestBytes(server, rig, bigWorkspace, n.bytesTurns, () =>
      gemini(n.bytesTurns, bigWorkspace, MODEL),
    );
    return {
      geminiCliVersion: GEMINI_CLI_VERSION,
      longTurns: n.longTurns,
      perTurnMs,
      requestBytes,
      bytesTurns: n.bytesTurns,
      bytesFileSize,
    };
  } finally {
    await rig.close();
  }
}

async function measureRequestBytes(
  server: BenchServer,
  rig: Rig,
  workspace: string,
  turns: number,
  gemini: () => Promise<unknown>,
): Promise<SideBySideResult['requestBytes']> {
  const lines = [...scriptFor(turns), ...Array.from({ length: 4 }, () => SUMMARY)];
  const sum = () => rig.fake.requests.reduce((total, r) => total + r.bytes, 0);
  rig.fake.load(lines);
  const input = { ...benchInput(workspace, turns), model: MODEL };
  const handle = await startPrompt(server.client, input, {
    taskQueue: rig.taskQueue,
    workflowId: `bytes-${Date.now()}`,
  });
  const result = await handle.result();
  if (result.terminateReason !== 'completed') throw new Error(`bytes run ended ${result.terminateReason}`);
  const ours = sum();
  const oursRequests = rig.fake.requests.length;
  rig.fake.load(lines);
  await gemini();
  return { ours, gemini: sum(), oursRequests, geminiRequests: rig.fake.requests.length };
}

export const ratio = (pair: Pair) => median(pair.ours) / median(pair.gemini);
