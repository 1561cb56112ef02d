import type { PromptInput } from '../../src/workflows/api';
import { spawnWorker } from './processes';
import type { TestEnv } from './temporal-env';

export interface WorkerPromptOptions {
  /** Prefix of the task queue and workflow id. */
  name: string;
  fakeUrl: string;
  home: string;
  workspace: string;
  prompt: string;
  /** Input fields beyond the defaults (yolo, 10 turns, a 2 s tool heartbeat, fast model retries). */
  input?: Partial<PromptInput>;
}

/**
 * A prompt on its own task queue served by a worker in a separate process, so a test can SIGKILL
 * that worker and start another with the same `workerEnv` to take the prompt over.
 */
export async function startPromptOnWorkerProcess(env: TestEnv, options: WorkerPromptOptions) {
  const taskQueue = env.uniqueTaskQueue(options.name);
  const workerEnv = {
    TEMPORAL_ADDRESS: env.address,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    GOOGLE_GEMINI_BASE_URL: options.fakeUrl,
    DURABLE_AGENT_HOME: options.home,
  };
  const first = spawnWorker(workerEnv);
  const input: PromptInput = {
    prompt: options.prompt,
    workspace: options.workspace,
    model: 'gemini-test',
    approvalMode: 'yolo',
    maxTurns: 10,
    toolHeartbeatTimeoutMs: 2000,
    modelRetryInitialMs: 100,
    ...options.input,
  };
  const workflowId = `${options.name}-${Date.now()}`;
  const handle = await env.client.workflow.start('agentPromptWorkflow', { taskQueue, workflowId, args: [input] });
  return { workerEnv, first, handle };
}
