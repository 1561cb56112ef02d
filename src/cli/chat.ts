import type { Command } from 'commander';
import { newSessionDefaults, openArgsStore, sessionSettings, type Client } from '../client';
import type { Config } from '../config';
import type { ApprovalMode } from '../core/types';
import { hasApiKey, MissingApiKeyError } from '../model/api-key';
import type { Logger } from '../logger';
import { positiveInt } from './arguments';
import { addPromptOptions } from './prompt-options';
import { ChatRepl } from './chat-repl';
import { checkSessionId, existingSession, type ChatSession } from './chat-session';
import { printRecap, scriptNeeded } from './chat-recap';
import { EXIT } from './exit-codes';
import type { Io } from './output';
import { scriptedSessionQueue } from './resume';
import { openRuntime, type AgentRuntime, type FakeResponses } from '../runtime';

export interface ChatOptions {
  workspace: string;
  approvalMode: ApprovalMode;
  model: string;
  maxTurns: number;
  maxSessionTurns?: number;
  host?: string;
  fakeResponses?: FakeResponses;
  shellTimeoutSeconds?: number;
  approvalTimeoutSeconds?: number;
  policyFiles?: string[];
  loopDetection?: boolean;
  maxTokens?: number;
  /** The session's spending limit (set, or changed, by this chat's first message). */
  maxCostUsd?: number;
  trustWorkspace?: boolean;
}

type Setup = () => { config: Config; logger: Logger };

export function addChat(
  program: Command,
  setup: Setup,
  io: Io,
  fakeOption: (o: object) => FakeResponses | undefined,
): void {
  const command = program
    .command('chat')
    .description('talk to a session, one message per line (created on first use, resumed later)')
    .argument('<sessionId>');
  addPromptOptions(command, 'each prompt')
    .option('--no-loop-detection', 'turn loop detection off')
    .option('--max-tokens <n>', 'token budget of each prompt', positiveInt)
    .action(async (id: string, o) => {
      const { config, logger } = setup();
      const options: ChatOptions = {
        ...o,
        fakeResponses: fakeOption(o),
        shellTimeoutSeconds: o.shellTimeout,
        approvalTimeoutSeconds: o.approvalTimeout,
        policyFiles: o.policy,
        maxCostUsd: o.maxCost,
      };
      process.exitCode = await chatCommand(config, id, options, io, logger);
    });
}

/**
 * `durable-agent chat ID`: a conversation on session ID, created by its first message or resumed
 * with a recap. The session, not this process, holds the conversation: leaving (or a crash) loses
 * nothing, and the settings given here apply only when this chat creates the session.
 */
export async function chatCommand(
  config: Config,
  id: string,
  options: ChatOptions,
  io: Io,
  logger: Logger,
): Promise<number> {
  checkSessionId(id);
  const settings = sessionSettings(config, options);
  // Without a key only a scripted session's recap can be shown, which needs no worker.
  const keyless = !options.fakeResponses && !hasApiKey(config);
  const runtime = await openChatRuntime(config, id, options.fakeResponses, keyless, logger);
  const argsStore = openArgsStore(config);
  try {
    const exists = await existingSession(runtime.client, id);
    const scripted = await scriptedWithoutScript(runtime.client, config, id, exists && !options.fakeResponses);
    if (keyless && !scripted) throw new MissingApiKeyError();
    const tty = process.stdin.isTTY === true && process.stdout.isTTY === true;
    const session: ChatSession = {
      client: runtime.client,
      id,
      taskQueue: runtime.taskQueue,
      workspace: settings.workspace,
      model: options.model,
      io,
      interactive: tty,
      store: argsStore.store,
      config,
      ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
    };
    if (!exists) session.defaults = await newSessionDefaults(config, runtime.client, settings, options, io);
    if (!exists) io.stderr.write(`New session ${id}. Type a message, or /help.\n`);
    const pending = exists ? await printRecap(session) : [];
    if (scripted) return scriptNeeded(id, io);
    const end = await new ChatRepl(session, tty).run(pending);
    return end === 'interrupted' ? EXIT.cancelled : EXIT.ok;
  } finally {
    await argsStore.close();
    await runtime.stop();
  }
}

/** An existing session started by a scripted chat, resumed without a script (`check` false: not asked). */
async function scriptedWithoutScript(client: Client, config: Config, id: string, check: boolean): Promise<boolean> {
  return check && (await scriptedSessionQueue(client, config, id)) !== undefined;
}

/**
 * Scripted responses are served on a queue of this chat's own: on the shared one, the script would
 * answer other users' prompts and their workers this chat's. A scripted chat resumed later serves
 * the queue its session started on.
 */
function openChatRuntime(
  config: Config,
  id: string,
  fakeResponses: FakeResponses | undefined,
  keyless: boolean,
  logger: Logger,
): Promise<AgentRuntime> {
  return openRuntime(config, {
    fakeResponses,
    worker: keyless ? 'never' : 'auto',
    privateQueueForFake: true,
    queueToAdopt: (client) => scriptedSessionQueue(client, config, id),
    logger,
  });
}
