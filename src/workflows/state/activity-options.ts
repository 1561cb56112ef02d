import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { LLM_LOOP_CHECK_MAX_ATTEMPTS } from '../../core/loop/llm-schedule';
import { NON_RETRYABLE_MODEL_ERRORS } from '../../core/failures';
import type { PromptSettings } from './settings';
import { withLocalReads } from './local-tools';
import { summarized, toolSummary } from './summaries';
import { MCP_DEFAULT_TIMEOUT_MS } from '../../core/mcp';
import { onHost, readsMayRunLocally } from './host-queue';

/**
 * The activities of a prompt, each with the options its kind needs. Temporal owns retries: model
 * calls back off as Gemini CLI does (5 s doubling to 30 s, 10 attempts); tools heartbeat so a dead
 * worker's call moves on quickly; utility answers (routing, next speaker) fall back to a default.
 * What touches the workspace (tools, memory, `@path` files, the edit fixer's read, MCP) runs on the
 * prompt's host queue (state/host-queue.ts); model calls and store writes stay on the shared queue.
 */
export function activitiesFor(input: PromptSettings) {
  const modelRetry = {
    initialInterval: input.modelRetryInitialMs,
    backoffCoefficient: 2,
    maximumInterval: 30_000,
    nonRetryableErrorTypes: NON_RETRYABLE_MODEL_ERRORS,
  };
  const model = proxyActivities<Activities>({
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: input.modelHeartbeatTimeoutMs,
    retry: { ...modelRetry, maximumAttempts: input.modelMaxAttempts },
  });
  const host = onHost(input);
  const tools = proxyActivities<Activities>({
    ...host,
    startToCloseTimeout: input.shellTimeoutMs + 60_000,
    heartbeatTimeout: input.toolHeartbeatTimeoutMs,
    retry: { initialInterval: '1 second', maximumAttempts: 5 },
  });
  const loopCheck = proxyActivities<Activities>({
    startToCloseTimeout: '2 minutes',
    retry: { ...modelRetry, maximumAttempts: LLM_LOOP_CHECK_MAX_ATTEMPTS },
  });
  const utility = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', retry: { maximumAttempts: 1 } });
  const mcp = mcpActivities(input);
  return {
    callModel: summarized(model.callModel, (i) => i.model),
    compressTranscript: model.compressTranscript,
    runTool: readsMayRunLocally(input)
      ? withLocalReads(summarized(tools.runTool, toolSummary))
      : summarized(tools.runTool, toolSummary),
    recordMessage: tools.recordMessage,
    agentResult: tools.agentResult,
    checkForLoop: loopCheck.checkForLoop,
    routeModel: utility.routeModel,
    checkNextSpeaker: utility.checkNextSpeaker,
    ...readActivities(host),
    discoverMcpTools: mcp.discoverMcpTools,
    callMcpTool: mcp.callMcpTool,
  };
}

/** Activities that read the workspace or the host's files (and checkpoints), on the host's queue (`host`). */
function readActivities(host: { taskQueue?: string }) {
  // Reading a prompt's `@path` files: a failure is the user's mistake (non-retryable), a crash is retried.
  const files = proxyActivities<Activities>({
    ...host,
    startToCloseTimeout: '2 minutes',
    retry: { maximumAttempts: 3 },
  });
  // Gemini CLI gives its edit fixer one attempt and 40 s; past that the edit's own error stands.
  const fixer = proxyActivities<Activities>({
    ...host,
    startToCloseTimeout: '40 seconds',
    retry: { maximumAttempts: 1 },
  });
  // Reading the context files is short and does not heartbeat: a time limit of its own, a few attempts.
  const memory = proxyActivities<Activities>({
    ...host,
    startToCloseTimeout: '1 minute',
    retry: { maximumAttempts: 3 },
  });
  return {
    loadMemory: memory.loadMemory,
    activateSkill: memory.activateSkill,
    fixEdit: fixer.fixEdit,
    expandAtPaths: files.expandAtPaths,
    checkpointWorkspace: checkpoints(host).checkpointWorkspace,
  };
}

/**
 * Checkpoints run on the host, like the tools whose changes they keep. A walk of a large workspace reads every
 * changed file once; it is retried after a crash (taking it again stores nothing twice).
 */
function checkpoints(host: { taskQueue?: string }) {
  return proxyActivities<Activities>({
    ...host,
    startToCloseTimeout: '10 minutes',
    retry: { initialInterval: '1 second', maximumAttempts: 5 },
  });
}

/**
 * MCP discovery returns each server's failure as a result, so a retry means the worker died; a call
 * heartbeats like a tool and may last the longest server timeout (Gemini CLI: 10 minutes).
 */
function mcpActivities(input: PromptSettings) {
  const longest = Math.max(MCP_DEFAULT_TIMEOUT_MS, ...Object.values(input.mcpServers ?? {}).map((s) => s.timeout ?? 0));
  const discovery = proxyActivities<Activities>({
    ...onHost(input),
    startToCloseTimeout: '2 minutes',
    heartbeatTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumAttempts: 3 },
  });
  const calls = proxyActivities<Activities>({
    ...onHost(input),
    startToCloseTimeout: longest + 60_000,
    heartbeatTimeout: input.toolHeartbeatTimeoutMs,
    retry: { initialInterval: '1 second', maximumAttempts: 5 },
  });
  return { discoverMcpTools: discovery.discoverMcpTools, callMcpTool: calls.callMcpTool };
}

export type PromptActivities = ReturnType<typeof activitiesFor>;
