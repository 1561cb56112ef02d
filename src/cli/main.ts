import { Command, CommanderError, Option } from 'commander';
import { DEFAULT_SHUTDOWN_GRACE_MS, graceOption, hostOption } from './host-options';
import {
  failureText,
  PayloadTooLargeError,
  sessionTurns,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '../client';
import { ConfigError, loadConfig, type Config } from '../config';
import { APPROVAL_MODES, type ApprovalMode } from '../core/types';
import { runFakeGeminiCommand } from '../fake-gemini';
import { MissingApiKeyError } from '../model/api-key';
import { createLogger, type Logger } from '../logger';
import { EXIT, InputError } from './exit-codes';
import { withClient, withPrompt } from './connect';
import { addEndings } from './end-commands';
import { addList } from './list';
import { confirmCommand, pendingCommand, statusCommand, watchCommand } from './inspect';
import { addSteering } from './steering';
import { addAnswer } from './answer';
import { addChat } from './chat';
import { positiveInt } from './arguments';
import type { Io, OutputFormat } from './output';
import { serveCommand } from './serve';
import { addReplayCheck } from './replay-check';
import { serveMetricsAt } from '../worker/metrics';
import { useDeployment } from '../worker/deployment';
import { addTrust } from './trust';
import { addMemory } from './memory';
import { addSkills } from './skills';
import { addRun } from './run-options';
import { addTravel } from './travel';
import { addAcp } from './acp-command';
import type { FakeResponses } from '../runtime';
import { fakeResponsesOption } from './fake-responses';
import { openHomeWarning } from '../private-files';
import { geminiStyle, HELP_AFTER } from './bare-command';
import { packageVersion } from '../runtime/self-command';

const io: Io = { stdout: process.stdout, stderr: process.stderr };

/** Entry point of the `durable-agent` binary: parses arguments, runs one command, sets the exit code. */
export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(geminiStyle(argv));
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
    .version(packageVersion(), '-v, --version', 'print the version')
    .addHelpText('after', HELP_AFTER)
    .exitOverride()
    // One line, not the whole help: the error names the problem, --help the rest.
    .showHelpAfterError('(add --help for the usage)');
  addRun(program, setup, io, fakeOption);
  addInspection(program);
  addApprovals(program);
  addSteering(program, setup, io);
  addAnswer(program, setup, io);
  addChat(program, setup, io, fakeOption);
  addServers(program);
  addFakeGemini(program);
  addTrust(program, setup, io);
  addMemory(program, setup, io);
  addSkills(program, setup, io);
  addReplayCheck(program, setup, io);
  addAcp(program, setup);
  addTravel(program, setup, io, sessionTurns);
  return program;
}

function addInspection(program: Command): void {
  program
    .command('status')
    .argument('<id>')
    .option('--json', 'one JSON object')
    .description('show a prompt’s state')
    .action(async (id: string, o) => {
      const context = setup();
      process.exitCode = await withPrompt(context, id, (client) =>
        statusCommand(client, context.config, id, !!o.json, io),
      );
    });
  program
    .command('watch')
    .argument('<id>')
    .addOption(new Option('-o, --output <format>').choices(['text', 'json', 'stream-json']).default('text'))
    .description('follow a prompt’s events to its end')
    .action(async (id: string, o) => {
      const context = setup();
      process.exitCode = await withPrompt(context, id, (client) =>
        watchCommand(client, context.config, id, o.output as OutputFormat, io),
      );
    });
  addList(program, (run) => withClient(setup(), run), io);
  addEndings(program, setup, io);
  program
    .command('pending')
    .argument('[id]')
    .description('list calls awaiting approval and questions awaiting an answer')
    .action(async (id?: string) => {
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
    .addOption(
      new Option(
        '--always-server',
        'for an MCP tool: also allow every tool of its server for the rest of the prompt (elsewhere as --always)',
      ).conflicts('always'),
    )
    .addOption(
      new Option('--mode <mode>', 'for exit_plan_mode: the approval mode to continue in').choices([...APPROVAL_MODES]),
    )
    .description('approve a call awaiting approval')
    .action(async (id: string, callId: string | undefined, o) => {
      const outcome = o.alwaysServer ? 'proceed_always_server' : o.always ? 'proceed_always' : 'proceed_once';
      process.exitCode = await withClient(setup(), (client) =>
        confirmCommand(client, id, callId, { outcome, mode: o.mode as ApprovalMode | undefined }, io),
      );
    });
  program
    .command('deny')
    .argument('<id>')
    .argument('[callId]')
    .option('--reason <text>', 'told to the model')
    .description('deny a call awaiting approval')
    .action(async (id: string, callId: string | undefined, o) => {
      process.exitCode = await withClient(setup(), (client) =>
        confirmCommand(client, id, callId, { outcome: 'cancel', reason: o.reason }, io),
      );
    });
}

function addServers(program: Command): void {
  for (const kind of ['server', 'worker'] as const) {
    program
      .command(kind)
      .description(
        kind === 'server'
          ? 'run the embedded Temporal dev server and a worker in the foreground'
          : 'run a worker against TEMPORAL_ADDRESS',
      )
      .option('--fake-responses <file>', 'answer model calls from a script (strict order)')
      .option('--fake-responses-non-strict <file>', 'answer model calls from a script (first line with the method)')
      .option('--metrics <host:port>', 'serve Prometheus metrics on /metrics (or DURABLE_AGENT_METRICS)')
      .option('--deployment <name>', 'Worker Deployment Versioning: the deployment (or DURABLE_AGENT_DEPLOYMENT)')
      .option('--build-id <id>', "this worker's build in the deployment (or DURABLE_AGENT_BUILD_ID)")
      .option('--host <name>', "the host this worker serves tools for (default: this machine's name)", hostOption)
      .option(
        '--shutdown-grace <duration>',
        'on SIGTERM/SIGINT, time running tool calls get to finish before they are cancelled (e.g. 30s, 2m)',
        graceOption,
        DEFAULT_SHUTDOWN_GRACE_MS,
      )
      .option('--no-spare', 'keep no spare process for `run` (or DURABLE_AGENT_SPARE=0)')
      .action(async (o) => {
        const { config, logger } = setup('warn');
        serveMetricsAt(o.metrics, config.metricsAddress);
        useDeployment(o, config.deployment);
        const workerHost = { host: o.host as string | undefined, shutdownGraceMs: o.shutdownGrace as number };
        process.exitCode = await serveCommand(config, kind, fakeOption(o), io, logger, workerHost, o.spare as boolean);
      });
  }
}

function addFakeGemini(program: Command): void {
  program
    .command('fake-gemini')
    .description('serve scripted model responses over the Gemini REST API')
    .requiredOption('--script <file>', 'JSON Lines script (Gemini CLI --fake-responses format)')
    .option('--port <n>', 'port on 127.0.0.1 (default: a free one)', positiveInt)
    .option('--non-strict', 'take the first line with the requested method')
    .action(async (o) => {
      process.exitCode = await runFakeGeminiCommand({
        scriptPath: o.script,
        port: o.port,
        nonStrict: !!o.nonStrict,
        stdout: process.stdout,
        stderr: process.stderr,
      });
    });
}

function setup(defaultLevel?: Config['logLevel']): { config: Config; logger: Logger } {
  const config = loadConfig();
  const openHome = openHomeWarning(config.home);
  if (openHome) process.stderr.write(openHome);
  // Commands that talk to a person keep worker warnings (a retried activity) off their stderr.
  const level = config.logLevelSet ? config.logLevel : (defaultLevel ?? 'error');
  return { config, logger: createLogger(level) };
}

function fakeOption(o: { fakeResponses?: string; fakeResponsesNonStrict?: string }): FakeResponses | undefined {
  return fakeResponsesOption(o);
}

/** Prints a one-line reason and returns Gemini CLI's exit code for it. */
function reportError(err: unknown): number {
  if (err instanceof CommanderError) {
    return err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version'
      ? EXIT.ok
      : EXIT.input;
  }
  process.stderr.write(`durable-agent: ${failureText(err)}\n`);
  if (err instanceof InputError || err instanceof WorkflowUpdateFailedError || err instanceof PayloadTooLargeError)
    return EXIT.input;
  if (err instanceof ConfigError) return EXIT.config;
  if (err instanceof MissingApiKeyError) return EXIT.auth;
  if (err instanceof WorkflowNotFoundError) return EXIT.input;
  return EXIT.error;
}
