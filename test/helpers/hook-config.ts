import type { HookCommand, HookEventName, HooksConfig } from '../../src/core/hooks/types';

/** One hook definition for `event` running `commands` (strings, or full hook objects). */
export function hooksOn(
  event: HookEventName,
  commands: (string | Omit<HookCommand, 'type'>)[],
  definition: { matcher?: string; sequential?: boolean } = {},
): HooksConfig {
  return {
    [event]: [
      {
        ...definition,
        hooks: commands.map((c) =>
          typeof c === 'string' ? { type: 'command', command: c } : { type: 'command', ...c },
        ),
      },
    ],
  };
}

/** A shell command that prints `value` as JSON (single quotes inside are not supported). */
export function answer(value: unknown): string {
  return `echo '${JSON.stringify(value)}'`;
}

/** A shell command that saves its stdin under the workspace, then prints `value`. */
export function saveAndAnswer(file: string, value: unknown = {}): string {
  return `cat > "$GEMINI_PROJECT_DIR/${file}"; ${answer(value)}`;
}

type Part = { text?: string; functionResponse?: { name: string; response: Record<string, unknown> } };
export type SentRequest = {
  contents: { role: string; parts: Part[] }[];
  tools?: { functionDeclarations?: { name: string }[] }[];
  generationConfig?: Record<string, unknown>;
  toolConfig?: { functionCallingConfig?: { mode?: string } };
};
