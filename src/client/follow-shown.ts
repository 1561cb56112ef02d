import type { Client } from '@temporalio/client';
import { openLiveStream } from '../store/open-live';
import { followPrompt, type FollowItem, type FollowOptions } from './follow';
import { openArgsStore, withFullArgs } from './full-args';

/** Where a front end finds what the workers store: files under the agent's home, or PostgreSQL. */
export interface StoreConfig {
  home: string;
  storeUrl?: string;
}

/**
 * Follows a prompt as a person is shown it: its events, and its model output as it streams from
 * the live side channel of the configured store, so a watcher on any machine that shares the store
 * sees text as it is generated. Calls' arguments come in full, read from the same store (see
 * full-args). Items come in the order they happened.
 */
export async function* followShown(
  config: StoreConfig,
  client: Client,
  workflowId: string,
  options: Omit<FollowOptions, 'live'> = {},
): AsyncGenerator<FollowItem, void, undefined> {
  const { live, close } = await openLiveStream(config);
  const args = openArgsStore(config);
  try {
    for await (const item of followPrompt(client, workflowId, { ...options, live })) {
      if (item.kind === 'piece') yield item;
      else yield { kind: 'event', event: await withFullArgs(item.event, args.store) };
    }
  } finally {
    await close();
    await args.close();
  }
}
