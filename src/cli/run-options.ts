import { Option, type Command } from 'commander';
import { addGeminiFlags, foldGeminiFlags, pipedInput, type GeminiFlags } from './gemini-flags';
import type { Config } from '../config';
import type { ApprovalMode } from '../core/types';
import type { Logger } from '../logger';
import { positiveInt } from './arguments';
import { demoCommand } from './demo';
import type { Io, OutputFormat } from './output';
import { addPromptOptions } from './prompt-options';
import { runCommand, type RunOptions } from './run';
import type { FakeResponses } from '../runtime';

type Setup = () => { config: Config; logger: Logger };
type FakeOption = (o: RunFlags) => FakeResponses | undefined;

/** `run` (one prompt, followed to its end) and `demo` (the scripted run in a scratch workspace). */
export function addRun(program: Command, setup: Setup, io: Io, fakeOption: FakeOption): void {
  const command = program
    .command('run')
    .description('run a prompt as a workflow and follow it to its end')
    .argument('[prompt]', 'the prompt (default: standard input)');
  addPromptOptions(command, 'this prompt')
    .option('--detach', 'start the prompt, print its id and return')
    .addOption(
      new Option('-o, --output <format>', 'output format').choices(['text', 'json', 'stream-json']).default('text'),
    )
    .option('--no-loop-detection', 'turn loop detection off for this prompt')
    .option('--max-tokens <n>', 'token budget of the prompt; when spent it pauses for a top-up', positiveInt)
    .option('--session <id>', 'run as the next message of this conversation (started on first use)')
    .option('--next-speaker-check', 'after an answer, ask whether the model meant to go on (default with --detach)')
    .option('--no-next-speaker-check', 'never ask (default without --detach)');
  addGeminiFlags(command).action(async (prompt: string | undefined, o: RunFlags, cmd: Command) => {
    const { config, logger } = setup();
    const folded = foldGeminiFlags(cmd, prompt, o);
    const text = await promptText(prompt, o.prompt);
    process.exitCode = await runCommand(config, runOptions(text, { ...o, ...folded }, fakeOption(o)), io, logger);
  });
  program
    .command('demo')
    .description('run the demo prompt in a temporary workspace (scripted when GEMINI_API_KEY is unset)')
    .action(async () => {
      const { config, logger } = setup();
      process.exitCode = await demoCommand(config, io, logger);
    });
}

/** The `run` options as commander parses them. */
interface RunFlags extends GeminiFlags {
  workspace: string;
  approvalMode: string;
  model: string;
  maxTurns: number;
  maxSessionTurns?: number;
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
  maxCost?: number;
  trustWorkspace?: boolean;
  host?: string;
}

type Folded = RunFlags & ReturnType<typeof foldGeminiFlags>;

function runOptions(prompt: string, o: Folded, fakeResponses: FakeResponses | undefined): RunOptions {
  return {
    prompt,
    workspace: o.workspace,
    approvalMode: o.approvalMode as ApprovalMode,
    model: o.model,
    maxTurns: o.maxTurns,
    maxSessionTurns: o.maxSessionTurns,
    detach: !!o.detach,
    output: o.output as OutputFormat,
    fakeResponses,
    shellTimeoutSeconds: o.shellTimeout,
    approvalTimeoutSeconds: o.approvalTimeout,
    policyFiles: o.policy,
    loopDetection: o.loopDetection,
    nextSpeakerCheck: o.nextSpeakerCheck,
    maxTokens: o.maxTokens,
    maxCostUsd: o.maxCost,
    session: o.session,
    resume: o.resume,
    explicit: o.explicit,
    trustWorkspace: o.trustWorkspace,
    host: o.host,
  };
}

/** The positional prompt, else standard input; `-p` (Gemini CLI) comes after piped input, as there. */
async function promptText(positional: string | undefined, flag: string | undefined): Promise<string> {
  if (positional !== undefined) return positional;
  if (flag === undefined) return process.stdin.isTTY ? '' : readStdin();
  const piped = await pipedInput();
  return piped.trim() ? `${piped}\n\n${flag}` : flag;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
