import * as path from 'node:path';
import { Context } from '@temporalio/activity';
import type { NewPart } from '../core/types';
import type { TranscriptStore } from '../store/types';
import type { ToolJournal } from '../store/journal';
import type { LiveStream } from '../store/live-stream';
import { callModel, type FramedCallModelInput } from './call-model';
import { ModelAvailability } from './model-availability';
import { toUserMessage } from './user-parts';
import type { JsonModelSeam, ModelSeam } from '../model/seam';
import { runTool, type RunToolInput } from './run-tool';
import { judgeCall, type JudgeCallInput } from './judge-call';
import { agentResult, type AgentResultInput } from './agent-result';
import { meterModels, type Metered } from './usage-meter';
import { checkForLoop, type LoopCheckInput } from './loop-check';
import { compressTranscript, type CompressTranscriptInput } from './compress';
import { routeModel, type RouteModelInput } from './route-model';
import { checkNextSpeaker, type NextSpeakerInput } from './next-speaker';
import { fixEdit, type FixEditInput } from './fix-edit';
import { runHooks, type RunHooksInput } from './hooks/run-hooks';
import { expandAtPaths, type ExpandAtPathsInput } from './at-paths';
import { loadPromptMemory, type LoadMemoryInput } from './load-memory';
import { activateSkill, type ActivateSkillInput } from './skills/activate';
import { commandEnvironment } from '../config/env';
import { createExec } from './exec';
import { heartbeatIntervalFor, withHeartbeat } from './heartbeat';
import { defaultProcessRunner, type ProcessRunner } from './spawner/runner';
import { McpPool } from './mcp/pool';
import { workerBackgroundShells } from './background';
import { commandRecords } from './command-records';
import { discoverMcpTools, type DiscoverMcpInput } from './mcp/discover';
import { callMcpTool, type CallMcpToolInput } from './mcp/call';
import { cutTranscript, type CutTranscriptInput } from './cut-transcript';
import {
  checkpointWorkspace,
  restoreCheckpoint,
  type CheckpointInput,
  type RestoreCheckpointInput,
} from './checkpoint';

export interface ActivityDeps {
  models: ModelSeam;
  store: TranscriptStore;
  journal?: ToolJournal;
  live?: LiveStream;
  modelHeartbeatIntervalMs?: number;
  toolHeartbeatIntervalMs?: number;
  /** Time `grep_search` may spend matching one file before it reports the pattern as too slow. */
  grepTimeoutMs?: number;
  /** Environment of shell commands and command hooks (default: the worker's, without secrets). */
  commandEnv?: NodeJS.ProcessEnv;
  /** Starts shell commands and hooks away from the worker (default: the process's shared spawner). */
  runner?: ProcessRunner;
  /** Models out of quota on this worker (default: a memory of the activities' own). */
  availability?: ModelAvailability;
  /** durable-agent's home on this worker: the user-level `GEMINI.md` (none: no user-level memory). */
  home?: string;
  /** MCP connections of this worker (default: a pool of the activities' own). */
  mcpPool?: McpPool;
}

export interface RecordMessageInput {
  transcriptId: string;
  index: number;
  append: NewPart[];
}

/**
 * The activities, built from their dependencies: the worker passes the real SDK and
 * store, tests pass the same with the SDK pointed at the fake Gemini server.
 */
export function createActivities(deps: ActivityDeps) {
  return { ...modelActivities(deps), ...transcriptAndToolActivities(deps), ...mcpActivities(deps) };
}

/** The activities that call a model: the turn itself, and the utility calls metered by model. */
function modelActivities(deps: ActivityDeps) {
  // Per worker: a model found out of quota is not asked again, by any prompt, until its quota resets.
  const availability = deps.availability ?? new ModelAvailability();
  return {
    async callModel(input: FramedCallModelInput) {
      const heartbeatIntervalMs =
        deps.modelHeartbeatIntervalMs ?? heartbeatIntervalFor(Context.current().info.heartbeatTimeoutMs);
      const modelDeps = { models: deps.models, store: deps.store, live: deps.live, heartbeatIntervalMs };
      return availability.guard(input.model, () => callModel(modelDeps, input));
    },
    async checkForLoop(input: LoopCheckInput) {
      return metered(deps, (models) => checkForLoop({ models, store: deps.store }, input));
    },
    async routeModel(input: RouteModelInput) {
      return metered(deps, (models) => routeModel({ models, store: deps.store }, input));
    },
    async checkNextSpeaker(input: NextSpeakerInput) {
      return metered(deps, (models) => checkNextSpeaker({ models, store: deps.store }, input));
    },
    /** Gemini CLI's edit fixer, after a `replace` found no occurrence (run by the workflow, never by the tool). */
    async fixEdit(input: FixEditInput) {
      return metered(deps, (models) => fixEdit({ models, store: deps.store }, input));
    },
    async compressTranscript(input: CompressTranscriptInput) {
      return metered(deps, (models) =>
        compressTranscript({ models, store: deps.store, heartbeatIntervalMs: deps.modelHeartbeatIntervalMs }, input),
      );
    },
  };
}

/** The activities that run tools and hooks, judge calls and write the transcript without a model. */
function transcriptAndToolActivities(deps: ActivityDeps) {
  const commandEnv = deps.commandEnv ?? commandEnvironment();
  const runner = deps.runner ?? defaultProcessRunner();
  const exec = createExec(commandEnv, runner);
  const background = workerBackgroundShells(deps.home, { runner, env: commandEnv });
  const heartbeatIntervalMs = deps.toolHeartbeatIntervalMs;
  return {
    /** A tool call; the web tools' model requests come back in the outcome's `requests`, to be counted. */
    async runTool(input: RunToolInput) {
      return meteredTool(deps, { exec, background, heartbeatIntervalMs }, input);
    },
    /** `invoke_agent`'s result with the sub-agent's long output strings read back from the store. */
    async agentResult(input: AgentResultInput) {
      return agentResult(deps.store, input);
    },
    /** The workflow's checks of a call with blob markers, on its full arguments (a local activity). */
    async judgeCall(input: JudgeCallInput) {
      return judgeCall(deps.store, input);
    },
    /** The files a prompt's `@path` references name, read once and stored. */
    async expandAtPaths(input: ExpandAtPathsInput) {
      return expandAtPaths(deps.store, input);
    },
    /** The project context files, read at the start of each prompt. */
    async loadMemory(input: LoadMemoryInput) {
      return loadPromptMemory({ store: deps.store, home: deps.home }, input);
    },
    /** `activate_skill`: a discovered skill's instructions and files, read when the model asks. */
    async activateSkill(input: ActivateSkillInput) {
      return activateSkill(deps.store, input);
    },
    async runHooks(input: RunHooksInput) {
      return runHooks({ store: deps.store, env: commandEnv, runner, heartbeatIntervalMs }, input);
    },
    /** A checkpoint of the workspace before a call that may change files, and at the end of its turn. */
    async checkpointWorkspace(input: CheckpointInput) {
      return checkpointWorkspace({ store: deps.store, home: deps.home }, input);
    },
    /** A rewind asked from another host: the checkpoint written over the workspace here. */
    async restoreCheckpoint(input: RestoreCheckpointInput) {
      return restoreCheckpoint({ store: deps.store, home: deps.home }, input);
    },
    /** Records a user message without a model call: the last function responses of a stopped prompt. */
    async recordMessage(input: RecordMessageInput): Promise<number> {
      // Audio or video read by a call of the stopped prompt would need a message of its own: left out.
      const { parts } = await toUserMessage(input.append, deps.store, '');
      const message = { role: 'user', parts };
      await deps.store.writeMessage(input.transcriptId, input.index, message, Context.current().info.attempt);
      return input.index + 1;
    },
    /** A rewound or forked conversation: a new transcript of another's first messages. */
    async cutTranscript(input: CutTranscriptInput) {
      return cutTranscript(deps.store, input, Context.current().info.attempt);
    },
  };
}

/** Runs one tool call with its model requests (the web tools') metered. */
async function meteredTool(
  deps: ActivityDeps,
  shared: Pick<Parameters<typeof runTool>[0], 'exec' | 'background' | 'heartbeatIntervalMs'>,
  input: RunToolInput,
) {
  const records = deps.home ? commandRecords(path.join(deps.home, 'commands')) : undefined;
  const meter = meterModels(deps.models);
  const { store, journal, grepTimeoutMs, home } = deps;
  const toolDeps = { store, journal, grepTimeoutMs, ...shared, commandRecords: records, home };
  const outcome = await runTool({ ...toolDeps, models: meter.models }, input);
  const { requests } = meter.metered();
  return requests.length > 0 ? { ...outcome, requests } : outcome;
}

/** MCP discovery and calls, over one connection pool per worker. */
function mcpActivities(deps: ActivityDeps) {
  const pool = deps.mcpPool ?? new McpPool();
  return {
    async discoverMcpTools(input: DiscoverMcpInput) {
      return withHeartbeat(5000, () => discoverMcpTools({ pool, store: deps.store }, input));
    },
    async callMcpTool(input: CallMcpToolInput) {
      const heartbeatIntervalMs =
        deps.toolHeartbeatIntervalMs ?? heartbeatIntervalFor(Context.current().info.heartbeatTimeoutMs);
      return callMcpTool({ pool, store: deps.store, heartbeatIntervalMs }, input);
    },
  };
}

/** A utility call's result with the tokens its model calls used, per model (for the prompt's stats). */
async function metered<R extends object>(
  deps: ActivityDeps,
  run: (models: JsonModelSeam) => Promise<R>,
): Promise<R & Metered> {
  const meter = meterModels(deps.models);
  const result = await run(meter.models);
  return { ...result, ...meter.metered() };
}

export type Activities = ReturnType<typeof createActivities>;
