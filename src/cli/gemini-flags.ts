import * as fs from 'node:fs';
import * as path from 'node:path';
import { Option, type Command } from 'commander';
import { InputError } from './exit-codes';

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
