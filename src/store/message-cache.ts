import type { Content } from '@google/genai';

/** What a store keeps of parsed messages by default: well above one long prompt's (masked or not) transcript. */
export const MESSAGE_CACHE_BYTES = 128 * 1024 * 1024;

/**
 * Parsed transcript messages by blob reference, least recently used first out once their JSON
 * exceeds a byte budget. A message never changes once written (its reference is its content's
 * hash), so a worker parses each message once instead of on every model request: a prompt of a
 * thousand turns rereads its whole transcript a thousand times.
 *
 * Messages are handed out shared and deeply frozen: a caller that changes one fails loudly instead
 * of corrupting what every later request reads. Callers copy what they change (masking does). The
 * same object coming back lets per-message work be memoised by identity (see core/masking).
 */
export class MessageCache {
  private readonly entries = new Map<string, { message: Content; bytes: number }>();
  private bytes = 0;

  constructor(private readonly budget = MESSAGE_CACHE_BYTES) {}

  get(ref: string): Content | undefined {
    const entry = this.entries.get(ref);
    if (!entry) return undefined;
    this.entries.delete(ref);
    this.entries.set(ref, entry);
    return entry.message;
  }

  /** Parses `json` (the blob of `ref`), keeps it if it fits the budget, and returns it. */
  parse(ref: string, json: string): Content {
    const message = deepFreeze(JSON.parse(json) as Content);
    if (json.length > this.budget) return message;
    const old = this.entries.get(ref);
    if (old) this.bytes -= old.bytes;
    this.entries.set(ref, { message, bytes: json.length });
    this.bytes += json.length;
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
    return message;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
