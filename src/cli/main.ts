import { Command, CommanderError, Option } from 'commander';
import { DEFAULT_MAX_TURNS, PayloadTooLargeError, WorkflowNotFoundError, WorkflowUpdateFailedError } from '../client';
import { ConfigError, loadConfig, type Config } from '../config';
import { APPROVAL_MODES, type ApprovalMode } from '../core/types';
import { runFakeGeminiCommand } from '../fake-gemini';
import { MissingApiKeyError } from '../model/api-key';
import { createLogger, type Logger } from '../logger';
import { demoCommand } from './demo';
import { EXIT, InputError } from './exit-codes';
import { cancelPromptCommand, withClient, withPrompt } from './connect';
import { confirmCommand, listCommand, pendingCommand, statusCommand, watchCommand } from './inspect';
import { addSteering } from './steering';
import { addChat } from './chat';
import { positiveInt, positiveNumber } from './arguments';
import type { Io, OutputFormat } from './output';
import { DEFAULT_MODEL, runCommand } from './run';
import { serveCommand } from './serve';
import { addTrust } from './trust';
import type { FakeResponses } from './runtime';
import { fakeResponsesOption } from './fake-responses';

const io: Io = { stdout: process.stdout, stderr: process.stderr };

/** Entry point of the `durable-agent` binary: parses arguments, runs one command, sets the exit code. */
export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = reportError(err);
  }
  // gRPC channels and the native runtime can hold the event loop open after a command is done.
  const code = typeof process.exitCode === 'number' ? process.exitCode : 0;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

function buildProgram(): Command {
  const program = new Command('durable-agent')
    .description('A Gemini-CLI-style coding agent in which every prompt is a durable Temporal workflow.')
    .exitOverride()
    .showHelpAfterError();
  addRun(program);
  addInspection(program);
  addApprovals(program);
  addSteering(program, setup, io);
  addChat(program, setup, io, fakeOption);
  addServers(program);
  addTrust(program, setup, io);
  return program;
}

function addRun(program: Command): void {
  program
    .command('run')
    .description('run a prompt as a workflow and follow it to its end')
    .argument('[prompt]', 'the prompt (default: standard input)')
    .option('-w, --workspace <dir>', 'workspace the tools are confined to', process.cwd())
    .addOption(new Option('--approval-mode <mode>', 'which tool calls need approval').choices([...APPROVAL_MODES]).default('default'))
    .option('-m, --model <model>', 'Gemini model', DEFAULT_MODEL)
    .option('--max-turns <n>', 'model turns allowed for this prompt', positiveInt, DEFAULT_MAX_TURNS)
    .option('--shell-timeout <seconds>', 'timeout of each shell command', positiveNumber)
    .option('--approval-timeout <seconds>', 'deny a call not approved within this time (default: wait forever)', positiveNumber)
    .option('--detach', 'start the prompt, print its id and return')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json', 'stream-json']).default('text'))
    .option('--fake-responses <file>', 'answer model calls from a script (strict order)')
    .option('--fake-responses-non-strict <file>', 'answer model calls from a script (first line with the method)')
    .option('--policy <file...>', 'extra policy files (TOML), at the user tier')
    .option('--no-loop-detection', 'turn loop detection off for this prompt')
    .option('--max-tokens <n>', 'token budget of the prompt; when spent it pauses for a top-up', positiveInt)
    .option('--session <id>', 'run as the next message of this conversation (started on first use)')
    .option('--next-speaker-check', 'after an answer, ask whether the model meant to go on (default with --detach)')
    .option('--no-next-speaker-check', 'never ask (default without --detach)')
    .option('--trust-workspace', 'read the workspace\'s own .durable-agent/ configuration without trusting the folder for good')
    .action(runAction);
  program
    .command('demo')
    .description('run the demo prompt in a temporary workspace (scripted when GEMINI_API_KEY is unset)')
    .action(async () => {
      const { config, logger } = setup();
      process.exitCode = await demoCommand(config, io, logger);
    });
}

/** The `run` options as commander parses them. */
interface RunFlags {
  workspace: string;
  approvalMode: string;
  model: string;
  maxTurns: number;
  detach?: boolean;
  output: string;
  fakeResponses?: string;
  fakeResponsesNonStrict?: string;
  shellTimeout?: number;
  approvalTimeout?: number;
  policy?: string[];
  loopDetection: boolean;
  nextSpeakerCheck?: boolean;
  maxTokens?: number;
  session?: string;
  trustWorkspace?: boolean;
}

async function runAction(prompt: string | undefined, o: RunFlags): Promise<void> {
  const { config, logger } = setup();
  const text = prompt ?? (process.stdin.isTTY ? '' : await readStdin());
  const options = {
    prompt: text,
    workspace: o.workspace,
    approvalMode: o.approvalMode as ApprovalMode,
    model: o.model,
    maxTurns: o.maxTurns,
    detach: !!o.detach,
    output: o.output as OutputFormat,
    fakeResponses: fakeOption(o),
    shellTimeoutSeconds: o.shellTimeout,
    approvalTimeoutSeconds: o.approvalTimeout,
    policyFiles: o.policy,
    loopDetection: o.loopDetection,
    nextSpeakerCheck: o.nextSpeakerCheck,
    maxTokens: o.maxTokens,
    session: o.session,
    trustWorkspace: o.trustWorkspace,
  };
  process.exitCode = await runCommand(config, options, io, logger);
}

function addInspection(program: Command): void {
  program.command('status').argument('<id>').option('--json', 'one JSON object').description('show a prompt’s state').action(async (id: string, o) => {
    const context = setup();
    process.exitCode = await withPrompt(context, id, (client) => statusCommand(client, context.config, id, !!o.json, io));
  });
  program
    .command('watch')
    .argument('<id>')
    .addOption(new Option('-o, --output <format>').choices(['text', 'json', 'stream-json']).default('text'))
    .description('follow a prompt’s events to its end')
    .action(async (id: string, o) => {
      const context = setup();
      process.exitCode = await withPrompt(context, id, (client) => watchCommand(client, context.config, id, o.output as OutputFormat, io));
    });
  program.command('list').description('list prompts').action(async () => {
    process.exitCode = await withClient(setup(), (client) => listCommand(client, io));
  });
  program.command('cancel').argument('<id>').description('cancel a prompt').action(async (id: string) => {
    process.exitCode = await withClient(setup(), (client) => cancelPromptCommand(client, id, io));
  });
  program.command('pending').argument('[id]').description('list calls awaiting approval').action(async (id?: string) => {
    const context = setup();
    process.exitCode = await withClient(context, (client) => pendingCommand(client, context.config, id, io));
  });
}

/** `approve` and `deny`, sent as the confirmToolCall update. */
function addApprovals(program: Command): void {
  program
    .command('approve')
    .argument('<id>')
    .argument('[callId]')
    .option(
      '--always',
      'also allow for the rest of the prompt: for a shell call, each of its commands with the same first argument ' +
        '(`git status` allows `git status -s`, not `git push`); for an edit, that file; otherwise the tool',
    )
    .addOption(new Option('--mode <mode>', 'for exit_plan_mode: the approval mode to continue in').choices([...APPROVAL_MODES]))
    .description('approve a call awaiting approval')
    .action(async (id: string, callId: string | undefined, o) => {
      const outcome = o.always ? 'proceed_always' : 'proceed_once';
      process.exitCode = await withClient(setup(), (client) => confirmCommand(client, id, callId, { outcome, mode: o.mode as ApprovalMode | undefined }, io));
    });
  program
    .command('deny')
    .argument('<id>')
    .argument('[callId]')
    .option('--reason <text>', 'told to the model')
    .description('deny a call awaiting approval')
    .action(async (id: string, callId: string | undefined, o) => {
      process.exitCode = await withClient(setup(), (client) => confirmCommand(client, id, callId, { outcome: 'cancel', reason: o.reason }, io));
    });
}

function addServers(program: Command): void {
  for (const kind of ['server', 'worker'] as const) {
    program
      .command(kind)
      .description(kind === 'server' ? 'run the embedded Temporal dev server and a worker in the foreground' : 'run a worker against TEMPORAL_ADDRESS')
      .option('--fake-responses <file>', 'answer model calls from a script (strict order)')
      .option('--fake-responses-non-strict <file>', 'answer model calls from a script (first line with the method)')
      .action(async (o) => {
        const { config, logger } = setup('info');
        process.exitCode = await serveCommand(config, kind, fakeOption(o), io, logger);
      });
  }
  program
    .command('fake-gemini')
    .description('serve scripted model responses over the Gemini REST API')
    .requiredOption('--script <file>', 'JSON Lines script (Gemini CLI --fake-responses format)')
    .option('--port <n>', 'port on 127.0.0.1 (default: a free one)', positiveInt)
    .option('--non-strict', 'take the first line with the requested method')
    .action(async (o) => {
      process.exitCode = await runFakeGeminiCommand({ scriptPath: o.script, port: o.port, nonStrict: !!o.nonStrict, stdout: process.stdout, stderr: process.stderr });
    });
}

function setup(defaultLevel?: Config['logLevel']): { config: Config; logger: Logger } {
  const config = loadConfig();
  // Commands that talk to a person keep worker warnings (a retried activity) off their stderr.
  const level = config.logLevelSet ? config.logLevel : (defaultLevel ?? 'error');
  return { config, logger: createLogger(level) };
}

function fakeOption(o: { fakeResponses?: string; fakeResponsesNonStrict?: string }): FakeResponses | undefined {
  return fakeResponsesOption(o);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Prints a one-line reason and returns Gemini CLI's exit code for it. */
function reportError(err: unknown): number {
  if (err instanceof CommanderError) {
    return err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? EXIT.ok : EXIT.input;
  }
  const cause = err instanceof WorkflowUpdateFailedError && err.cause ? err.cause : err;
  const message = cause instanceof Error ? cause.message : String(cause);
  process.stderr.write(`durable-agent: ${message}\n`);
  if (err instanceof InputError || err instanceof WorkflowUpdateFailedError || err instanceof PayloadTooLargeError) return EXIT.input;
  if (err instanceof ConfigError) return EXIT.config;
  if (err instanceof MissingApiKeyError) return EXIT.auth;
  if (err instanceof WorkflowNotFoundError) return EXIT.input;
  return EXIT.error;
}
