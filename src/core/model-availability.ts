/**
 * Which models are out of quota, and until when (epoch ms): Gemini CLI's model availability, as plain
 * data a workflow can carry from prompt to prompt and a worker can keep for its activities. Time is
 * always passed in: workflow time in a workflow, the worker's clock in an activity.
 */
export interface ModelUnavailability {
  model: string;
  /** When its quota is expected back: the error's retry info, or `QUOTA_RESET_UNKNOWN_MS` after it. */
  until: number;
}

/**
 * How long a model is held unavailable when its quota error gave no reset time. Gemini CLI keeps such
 * a model out for the rest of the session; a durable session can last days, so ours tries it again
 * after this (a used-up quota then costs one refused request, not a round of retries).
 */
export const QUOTA_RESET_UNKNOWN_MS = 10 * 60_000;

/** The entries still in force at `now`, one per model (the latest `until`); malformed entries are dropped. */
export function stillUnavailable(list: unknown, now: number): ModelUnavailability[] {
  const latest = new Map<string, number>();
  for (const entry of Array.isArray(list) ? list : []) {
    if (!isEntry(entry) || entry.until <= now) continue;
    latest.set(entry.model, Math.max(entry.until, latest.get(entry.model) ?? 0));
  }
  return [...latest].map(([model, until]) => ({ model, until }));
}

/** `list` with `model` unavailable until `until` (expired entries dropped). */
export function markUnavailable(
  list: ModelUnavailability[],
  model: string,
  until: number,
  now: number,
): ModelUnavailability[] {
  return stillUnavailable([...list.filter((e) => e.model !== model), { model, until }], now);
}

/** When `model` is expected back, if it is unavailable at `now`. */
export function unavailableUntil(list: ModelUnavailability[], model: string, now: number): number | undefined {
  return stillUnavailable(list, now).find((e) => e.model === model)?.until;
}

function isEntry(value: unknown): value is ModelUnavailability {
  const e = value as Partial<ModelUnavailability> | null;
  return typeof e?.model === 'string' && e.model !== '' && typeof e.until === 'number' && Number.isFinite(e.until);
}
