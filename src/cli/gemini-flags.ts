import * as fs from 'node:fs';
import * as path from 'node:path';
import { Option, type Command } from 'commander';
import { describeExecution, latestSession, WorkflowNotFoundError, type Client } from '../client';
import { settingsDefaults, type CommandSettings } from '../config/workspace';
import type { ApprovalMode } from '../core/types';
import type { Logger } from '../logger';
import type { PromptInput } from '../workflows/api';
import { InputError } from './exit-codes';
import type { RunOptions } from './prompt-input';

/**
 * Gemini CLI's headless flags, accepted beside ours so that a script written for `gemini` runs with
 * `durable-agent` in its place (README, "Coming from Gemini CLI"). Each maps onto one of our options.
 */
export function addGeminiFlags(command: Command): Command {
  return command
    .option('-p, --prompt <text>', 'the prompt (Gemini CLI); piped standard input comes before it')
    .addOption(
      new Option('--output-format <format>', 'the same as -o (Gemini CLI’s name)').choices([
        'text',
        'json',
        'stream-json',
      ]),
    )
    .option('-y, --yolo', 'the same as --approval-mode yolo (Gemini CLI)')
    .option('--resume [session]', 'continue a session: its id, or `latest` (the default): this workspace’s newest')
    .option(
      '--include-directories <dirs>',
      'directories the tools may use (Gemini CLI; comma-separated or repeated): each must lie inside the workspace',
      (value: string, before: string[] = []) => [...before, ...value.split(',').filter((d) => d.trim())],
    );
}

export interface GeminiFlags {
  prompt?: string;
  outputFormat?: string;
  output: string;
  yolo?: boolean;
  approvalMode: string;
  resume?: string | true;
  session?: string;
  includeDirectories?: string[];
  workspace: string;
}

/** Folds Gemini CLI's flags into ours; a contradiction is a usage error (exit 42), as in Gemini CLI. */
export function foldGeminiFlags(command: Command, positional: string | undefined, o: GeminiFlags) {
  if (positional !== undefined && o.prompt !== undefined)
    throw new InputError('Cannot use both a positional prompt and the --prompt (-p) flag together');
  if (o.yolo && command.getOptionValueSource('approvalMode') === 'cli' && o.approvalMode !== 'yolo')
    throw new InputError('Cannot use both --yolo (-y) and --approval-mode together. Use --approval-mode=yolo instead.');
  if (o.outputFormat && command.getOptionValueSource('output') === 'cli' && o.output !== o.outputFormat)
    throw new InputError(`-o ${o.output} and --output-format ${o.outputFormat} disagree: give one`);
  if (o.resume !== undefined && o.session !== undefined)
    throw new InputError('--resume and --session both name a session: give one');
  checkIncluded(o.includeDirectories ?? [], o.workspace);
  return {
    explicit: {
      model: command.getOptionValueSource('model') === 'cli',
      approvalMode: !!o.yolo || command.getOptionValueSource('approvalMode') === 'cli',
    },
    approvalMode: o.yolo ? 'yolo' : o.approvalMode,
    output: o.outputFormat ?? o.output,
    resume: o.resume === true ? 'latest' : o.resume,
  };
}

/**
 * Tools are confined to one directory tree (invariant of the workspace), so an included directory
 * is accepted when it already lies inside it, and refused with the reason otherwise.
 */
function checkIncluded(dirs: string[], workspace: string): void {
  const root = fs.existsSync(workspace) ? fs.realpathSync(workspace) : path.resolve(workspace);
  for (const dir of dirs) {
    const full = path.resolve(root, dir.trim());
    if (!fs.existsSync(full) || !fs.statSync(full).isDirectory())
      throw new InputError(`--include-directories: ${full} is not a directory`);
    const real = fs.realpathSync(full);
    if (real !== root && !real.startsWith(root + path.sep))
      throw new InputError(
        `--include-directories: ${real} is outside the workspace ${root}; every tool is confined to the ` +
          'workspace: run with -w set to a directory that holds both',
      );
  }
}

/** The session `--resume` names: `latest` is this workspace's newest running session. */
export async function resumedSession(client: Client, resume: string, workspace: string): Promise<string> {
  if (resume === 'latest') {
    const id = await latestSession(client, workspace);
    if (!id) throw new InputError(`No previous sessions found for this project (${workspace}).`);
    return id;
  }
  const found = await describeExecution(client, resume).catch((err) => {
    if (err instanceof WorkflowNotFoundError) throw new InputError(`--resume: no session ${resume}`);
    throw err;
  });
  // `-o json` prints a session's prompt id as `session_id`: resuming it resumes its session.
  if (found.type === 'agentPromptWorkflow' && found.parentId) return resumedSession(client, found.parentId, workspace);
  if (found.type !== 'agentSessionWorkflow')
    throw new InputError(
      `--resume: ${resume} is a single prompt, not a session; runs started with --session ID (or chat) can be resumed`,
    );
  if (found.status !== 'RUNNING') throw new InputError(`--resume: session ${resume} is closed`);
  return resume;
}

/** Standard input when it is piped and says something within half a second (Gemini CLI waits as long). */
export async function pipedInput(stream: NodeJS.ReadStream = process.stdin, firstDataMs = 500): Promise<string> {
  if (stream.isTTY) return '';
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      stream.removeAllListeners('data').removeAllListeners('end').pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, firstDataMs);
    stream.on('data', (chunk: Buffer) => {
      clearTimeout(timer);
      chunks.push(chunk);
    });
    stream.once('end', done);
    stream.once('error', done);
  });
}

/**
 * The settings files' `model.name` and `general.defaultApprovalMode` where the command line did not
 * choose (`explicit`); each Gemini CLI key they hold and we ignore is logged as a warning too.
 */
export async function withSettingsDefaults(
  settings: CommandSettings,
  options: RunOptions,
  input: PromptInput,
  logger: Logger,
): Promise<RunOptions> {
  // Only `run` says what its command line set; `demo` and others keep the options they chose.
  if (!options.explicit) return options;
  const found = settingsDefaults(settings);
  for (const warning of found.warnings) logger.warn({ settings: warning }, 'Gemini CLI settings key ignored');
  const model = options.explicit.model ? options.model : (found.model ?? options.model);
  const approvalMode: ApprovalMode = options.explicit.approvalMode
    ? options.approvalMode
    : (found.approvalMode ?? options.approvalMode);
  Object.assign(input, { model, approvalMode });
  return { ...options, model, approvalMode };
}
