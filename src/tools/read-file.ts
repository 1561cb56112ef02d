import { z } from 'zod';
import { MAX_FILE_BYTES, decodeText, looksBinary, resolveFile } from './tool-helpers';
import { SUPPORTED_AUDIO_FORMATS, mediaTypeOf } from '../core/media';
import { mediaResult, unsupportedAudio } from './read-media';
import { ToolError, type ActivityTool } from './types';

/** Gemini CLI's limits: lines per read and characters per line. */
const MAX_LINES = 2000;
const MAX_LINE_CHARS = 2000;

const schema = z.object({
  file_path: z.string().min(1).describe('Path of the file to read, relative to the workspace root or absolute.'),
  start_line: z.number().int().min(1).optional().describe('Optional: first line to return (1-based).'),
  end_line: z.number().int().min(1).optional().describe('Optional: last line to return (1-based, inclusive).'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Optional, older form of start_line: number of lines to skip (0-based). Prefer start_line.'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Optional, older form of end_line: number of lines to return after offset. Prefer end_line.'),
});

type Args = z.infer<typeof schema>;

interface FileLines {
  lines: string[];
  ended: boolean;
}

interface LineRange {
  start: number;
  end: number;
  oldStyle: boolean;
}

export const readFileTool: ActivityTool<typeof schema> = {
  name: 'read_file',
  kind: 'read',
  reach: 'workspace',
  description:
    `Returns the text of one file. Read only the part you need with start_line and end_line ` +
    `(1-based, inclusive). At most ${MAX_LINES} lines are returned per call, lines longer than ` +
    `${MAX_LINE_CHARS} characters are cut, and files over 20 MB or other binary files are refused; a ` +
    `shortened result says which lines it holds and how to read the rest. Images (PNG, JPEG, GIF, WEBP, ...), ` +
    `PDF files, audio (${SUPPORTED_AUDIO_FORMATS}) and video are returned whole, as inline data you can see ` +
    `or hear.`,
  parameters: schema,
  async execute(args, deps) {
    const { workspace } = deps;
    const { absolute, info } = await resolveFile(workspace, args.file_path);
    const shown = workspace.relative(absolute);
    if (info.size > MAX_FILE_BYTES) {
      const mb = (info.size / (1024 * 1024)).toFixed(1);
      throw new ToolError(
        'file_too_large',
        `${shown} is ${mb} MB; read_file refuses files over 20 MB. Inspect it with run_shell_command (head, tail, ` +
          `grep) instead.`,
      );
    }
    const media = mediaTypeOf(absolute);
    if (media === 'unsupported_audio') unsupportedAudio(shown);
    const bytes = await workspace.readFile(absolute);
    // An audio or video name on a file of text reads as text, as in Gemini CLI.
    if (media && (media.kind === 'image' || media.kind === 'pdf' || looksBinary(bytes))) {
      return mediaResult(shown, media, bytes);
    }
    if (looksBinary(bytes)) {
      throw new ToolError(
        'execution_failed',
        `${shown} looks like a binary file (${info.size} bytes), so its content is not shown. read_file returns ` +
          `text files only.`,
      );
    }
    const known = { path: shown, fingerprint: deps.fingerprint(bytes) };
    return { ok: true, ...renderLines(shown, splitLines(decodeText(bytes)), args), known };
  },
};

/** The file's lines; a final newline ends the last line (it is kept in `ended`, not counted as a line). */
function splitLines(text: string): FileLines {
  const withoutBom = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (withoutBom === '') return { lines: [], ended: false };
  const lines = withoutBom.split('\n');
  const ended = lines[lines.length - 1] === '';
  if (ended) lines.pop();
  return { lines, ended };
}

function requestedRange(args: Args, total: number): LineRange {
  const newStyle = args.start_line !== undefined || args.end_line !== undefined;
  const oldStyle = args.offset !== undefined || args.limit !== undefined;
  if (newStyle && oldStyle) {
    throw new ToolError(
      'invalid_tool_params',
      'Use either start_line/end_line or the older offset/limit, not both in one call.',
    );
  }
  if (oldStyle) {
    const offset = args.offset ?? 0;
    return { start: offset + 1, end: args.limit === undefined ? total : offset + args.limit, oldStyle };
  }
  const start = args.start_line ?? 1;
  const end = args.end_line ?? total;
  if (args.end_line !== undefined && end < start) {
    throw new ToolError('invalid_tool_params', `end_line (${end}) must not be less than start_line (${start}).`);
  }
  return { start, end, oldStyle };
}

/**
 * The requested lines as they are in the file, line endings included: a read that reaches the last line
 * ends with the file's final newline when it has one, so a whole-file read returns the file's text.
 */
function renderLines(shown: string, file: FileLines, args: Args): { output: string; display?: string } {
  const { lines } = file;
  const total = lines.length;
  const range = requestedRange(args, total);
  if (total === 0 && range.start === 1) return { output: '' };
  if (range.start > total) {
    const given = range.oldStyle ? `offset ${range.start - 1}` : `start_line ${range.start}`;
    throw new ToolError('invalid_tool_params', `${given} is past the end of ${shown}, which has ${total} lines.`);
  }
  const end = Math.min(range.end, total, range.start + MAX_LINES - 1);
  let cutLines = 0;
  const body = lines.slice(range.start - 1, end).map((line) => {
    if (line.length <= MAX_LINE_CHARS) return line;
    cutLines += 1;
    return `${line.slice(0, MAX_LINE_CHARS)}... [line cut at ${MAX_LINE_CHARS} characters]`;
  });
  const partial = range.start > 1 || end < total;
  const text = body.join('\n') + (end === total && file.ended ? '\n' : '');
  if (!partial && cutLines === 0) return { output: text };
  const notes = [`[Partial content of ${shown}: lines ${range.start}-${end} of ${total}.`];
  if (end < total) notes.push(nextReadHint(range, end, total));
  if (cutLines > 0) notes.push(`${cutLines} line(s) longer than ${MAX_LINE_CHARS} characters were cut.`);
  const header = `${notes.join(' ')}]`;
  const display = `Read lines ${range.start}-${end} of ${total} from ${shown}`;
  return { output: `${header}\n\n${text}`, display };
}

function nextReadHint(range: LineRange, end: number, total: number): string {
  const last = Math.min(total, end + MAX_LINES);
  return range.oldStyle
    ? `To continue, call read_file again with offset: ${end} (limit: ${last - end}).`
    : `To continue, call read_file again with start_line: ${end + 1} (end_line: ${last}).`;
}
