import { followShown, type Client, type StoreConfig } from '../client';
import type { AgentEvent } from '../core/events';
import type { Printer } from './output';

/**
 * Prints a prompt to its end as the client follows it (see followShown): its events, and its
 * model output as it streams; `onEvent` sees each event after it is printed.
 */
export async function printFollowed(
  config: StoreConfig,
  client: Client,
  workflowId: string,
  printer: Printer,
  onEvent?: (event: AgentEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  for await (const item of followShown(config, client, workflowId, { signal })) {
    if (item.kind === 'piece') printer.piece(item.piece);
    else {
      printer.event(item.event);
      onEvent?.(item.event);
    }
  }
}
