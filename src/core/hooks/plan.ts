import type { HookCommand, HookEventName, HooksConfig } from './types';

/** The hooks one event runs, in configuration order, and whether they must run one at a time. */
export interface HookPlan {
  hooks: HookCommand[];
  sequential: boolean;
}

const TOOL_EVENTS: readonly HookEventName[] = ['BeforeTool', 'AfterTool'];

/**
 * The hooks of `event` whose matcher accepts `target`: a regular expression against the
 * tool name for tool events (an invalid one must match exactly), an exact string for the others
 * (PreCompress `manual`/`auto`, SessionStart's source, Notification's type); empty or `*` matches
 * everything. Identical hooks (same name and command) run once. Undefined when nothing matches, so
 * the workflow schedules no activity at all.
 */
export function planHooks(
  config: HooksConfig | undefined,
  event: HookEventName,
  target?: string,
): HookPlan | undefined {
  const definitions = (config?.[event] ?? []).filter((d) => matches(d.matcher, event, target));
  const seen = new Set<string>();
  const hooks: HookCommand[] = [];
  for (const hook of definitions.flatMap((d) => d.hooks)) {
    const key = `${hook.name ?? ''}:${hook.command}`;
    if (seen.has(key)) continue;
    seen.add(key);
    hooks.push(hook);
  }
  if (hooks.length === 0) return undefined;
  return { hooks, sequential: definitions.some((d) => d.sequential === true) };
}

function matches(matcher: string | undefined, event: HookEventName, target: string | undefined): boolean {
  if (!matcher || matcher === '*') return true;
  if (target === undefined) return true;
  if (!TOOL_EVENTS.includes(event)) return matcher === target;
  try {
    return new RegExp(matcher).test(target);
  } catch {
    return matcher === target;
  }
}
