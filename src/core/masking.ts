import type { Content, Part } from '@google/genai';
import type { KeepFullText } from './compression';
import {
  MASKING_MIN_PRUNABLE_TOKENS,
  MASKING_PROTECTION_THRESHOLD,
  MASKING_PROTECT_LATEST_TURN,
  estimatePartTokens,
  functionResponseText,
} from './tokens';

/**
 * Tool output masking: bulky outputs of older turns are replaced by a short preview and a reference
 * to the full text, which stays in the transcript store (read back with `read_tool_output`). Runs
 * before each model request, independently of compression.
 */

/** Marks a masked output, so that it is never masked twice. */
export const MASKED_TAG = 'tool_output_masked';

/** Outputs the workflow itself depends on: never masked. */
const EXEMPT_TOOLS = new Set(['activate_skill', 'ask_user', 'enter_plan_mode', 'exit_plan_mode']);

const SHELL_TOOL = 'run_shell_command';
/** Status lines that follow a shell command's `Output:` section; kept verbatim in a preview. */
const SHELL_STATUS_LINE = /^(Error|Exit Code|Signal|Background PIDs|Process Group PGID):/;
const SHELL_PREVIEW_LINES = 10;
const PREVIEW_CHARS = 250;

export interface MaskingOptions {
  protectionThreshold?: number;
  minPrunableTokens?: number;
  protectLatestTurn?: boolean;
}

/** A function response chosen for masking: where it is, its text and its estimated tokens. */
export interface MaskCandidate {
  message: number;
  part: number;
  toolName: string;
  text: string;
  tokens: number;
}

/** A function response's text and size, as masking sees it. */
interface MeasuredOutput {
  toolName: string;
  text: string;
  tokens: number;
  /** Masked already (never masked twice). */
  masked: boolean;
}

/**
 * Measurements and replacements by part object. A caching transcript store hands out the same
 * (frozen) message objects on every request, so a long prompt's old outputs are measured, kept and
 * previewed once per worker instead of once per model request; parts parsed afresh simply miss.
 */
const measured = new WeakMap<Part, MeasuredOutput | null>();
const replacements = new WeakMap<Part, { part: Part; saved: number }>();

/** Undefined for parts that are not maskable function responses (none, or an exempt tool's). */
function measure(part: Part): MeasuredOutput | undefined {
  const known = measured.get(part);
  if (known !== undefined) return known ?? undefined;
  const response = part.functionResponse;
  const toolName = response?.name ?? '';
  let output: MeasuredOutput | null = null;
  if (response && response.response !== undefined && !EXEMPT_TOOLS.has(toolName)) {
    const text = functionResponseText(response.response);
    output = { toolName, text, tokens: Math.floor(estimatePartTokens(part)), masked: text.includes(`<${MASKED_TAG}`) };
  }
  measured.set(part, output);
  return output ?? undefined;
}

/**
 * Scans newest to oldest (skipping the latest entry when `protectLatestTurn`), over function
 * responses that are neither exempt nor already masked. The newest outputs up to
 * `protectionThreshold` tokens are protected; the one that crosses it and all older ones are
 * prunable. Returns them (newest first) only if together they reach `minPrunableTokens`, else none.
 */
export function findMaskableOutputs(contents: readonly Content[], options: MaskingOptions = {}): MaskCandidate[] {
  const protection = options.protectionThreshold ?? MASKING_PROTECTION_THRESHOLD;
  const start = contents.length - ((options.protectLatestTurn ?? MASKING_PROTECT_LATEST_TURN) ? 2 : 1);
  const prunable: MaskCandidate[] = [];
  let protectedTokens = 0;
  let prunableTokens = 0;
  for (let i = start; i >= 0; i--) {
    const parts = contents[i].parts ?? [];
    for (let j = parts.length - 1; j >= 0; j--) {
      const output = measure(parts[j]);
      if (!output || output.masked) continue;
      const { toolName, text, tokens } = output;
      if (protectedTokens <= protection) {
        protectedTokens += tokens;
        if (protectedTokens <= protection) continue;
      }
      prunable.push({ message: i, part: j, toolName, text, tokens });
      prunableTokens += tokens;
    }
  }
  return prunableTokens >= (options.minPrunableTokens ?? MASKING_MIN_PRUNABLE_TOKENS) ? prunable : [];
}

/**
 * What the model sees instead of a masked output: a preview (shell: the `Output:` section's first and
 * last 10 lines when longer than 20, status lines verbatim; other tools: the first and last 250
 * characters when longer than 500) and how to read the full text back.
 */
export function maskedOutputText(candidate: Pick<MaskCandidate, 'toolName' | 'text' | 'tokens'>, ref: string): string {
  const { toolName, text, tokens } = candidate;
  const preview = toolName === SHELL_TOOL ? shellPreview(text) : simplePreview(text);
  const lines = text.split('\n').length;
  return (
    `<${MASKED_TAG}>\n${preview}\n\n` +
    (`[This ${toolName} output (${text.length.toLocaleString('en-US')} characters, ` +
      `${lines.toLocaleString('en-US')} lines, `) +
    (`about ${tokens.toLocaleString('en-US')} tokens) was masked to save context. The full output is stored as ` +
      `${ref}; `) +
    `read it with read_tool_output if you need more than this preview.]\n</${MASKED_TAG}>`
  );
}

/**
 * Masks the outputs `findMaskableOutputs` picks, keeping each full text through `keep`. A
 * replacement is applied only if it is smaller than the original. Returns new contents (the input is
 * not changed), how many outputs were masked and the tokens saved.
 */
export async function maskOldToolOutputs(
  contents: readonly Content[],
  keep: KeepFullText,
  options: MaskingOptions = {},
): Promise<{ contents: Content[]; masked: number; tokensSaved: number }> {
  const result = contents.map((content) => ({ ...content, parts: [...(content.parts ?? [])] }));
  let masked = 0;
  let tokensSaved = 0;
  for (const candidate of findMaskableOutputs(contents, options)) {
    const original = result[candidate.message].parts[candidate.part];
    const { part: replacement, saved } = replacements.get(original) ?? (await replace(original, candidate, keep));
    if (saved <= 0) continue;
    result[candidate.message].parts[candidate.part] = replacement;
    masked += 1;
    tokensSaved += saved;
  }
  return { contents: masked > 0 ? result : [...contents], masked, tokensSaved };
}

/**
 * The masked form of one output, remembered for its part object. `keep` is content-addressed and
 * durable (a transcript store's putBlob): a text kept once stays kept, so it is not kept again.
 */
async function replace(
  original: Part,
  candidate: MaskCandidate,
  keep: KeepFullText,
): Promise<{ part: Part; saved: number }> {
  const ref = await keep(candidate.text, candidate.toolName);
  const part: Part = {
    functionResponse: { ...original.functionResponse, response: { output: maskedOutputText(candidate, ref) } },
  };
  const replaced = { part, saved: candidate.tokens - Math.floor(estimatePartTokens(part)) };
  replacements.set(original, replaced);
  return replaced;
}

function simplePreview(text: string): string {
  if (text.length <= 2 * PREVIEW_CHARS) return text;
  const cut = text.length - 2 * PREVIEW_CHARS;
  return (
    `${text.slice(0, PREVIEW_CHARS)}\n... [${cut.toLocaleString('en-US')} characters omitted] ` +
    `...\n${text.slice(-PREVIEW_CHARS)}`
  );
}

/** Shell results read `Output: …` then status lines (`Exit Code: …`, `Signal: …`); see run_shell_command. */
function shellPreview(text: string): string {
  const lines = text.split('\n');
  let end = lines.length;
  while (end > 0 && SHELL_STATUS_LINE.test(lines[end - 1])) end--;
  const start = lines.findIndex((line) => line.startsWith('Output:'));
  if (start < 0 || start >= end) return simplePreview(text);
  const output = lines.slice(start, end);
  const kept =
    output.length > 2 * SHELL_PREVIEW_LINES
      ? [
          ...output.slice(0, SHELL_PREVIEW_LINES),
          `... [${output.length - 2 * SHELL_PREVIEW_LINES} lines omitted] ...`,
          ...output.slice(-SHELL_PREVIEW_LINES),
        ]
      : output;
  // Few but very long lines (one line of 40,000 characters) are cut by characters as well.
  const body = kept.join('\n');
  const shortened = body.length > 2 * PREVIEW_CHARS + SHELL_PREVIEW_LINES * 200 ? simplePreview(body) : body;
  return [...lines.slice(0, start), shortened, ...lines.slice(end)].join('\n');
}
