import { defineSearchAttributeKey } from '@temporalio/common';

/**
 * Custom search attributes, so that `durable-agent pending` and `temporal workflow list --query
 * "DurableAgentStatus='awaiting_approval'"` find prompts waiting for a person. The embedded dev
 * server and docker-compose register them; on a cluster without them the client says so in the
 * workflow input and the workflow leaves them alone (an unregistered key would fail its tasks).
 */
export const STATUS_ATTRIBUTE = defineSearchAttributeKey('DurableAgentStatus', 'KEYWORD');
export const KIND_ATTRIBUTE = defineSearchAttributeKey('DurableAgentKind', 'KEYWORD');
export const SESSION_ATTRIBUTE = defineSearchAttributeKey('DurableAgentSession', 'KEYWORD');

export const SEARCH_ATTRIBUTE_NAMES = [STATUS_ATTRIBUTE.name, KIND_ATTRIBUTE.name, SESSION_ATTRIBUTE.name];

/** `awaiting_answer`: an `ask_user` question waits for the user (and no call for approval). */
/** `budget_exhausted`: a request could cross the spending limit; the prompt waits for a top-up or a stop. */
export type AgentStatusValue = 'running' | 'awaiting_approval' | 'awaiting_answer' | 'budget_exhausted';

/** The statuses of a prompt that waits for a person: what `pending` lists and a status shows without a worker. */
export const WAITING_STATUSES = ['awaiting_approval', 'awaiting_answer', 'budget_exhausted'] as const;
export type WaitingStatus = (typeof WAITING_STATUSES)[number];

/** How a prompt ended, published once at its end: a query for `running` finds running prompts alone. */
export type AgentEndingValue = 'completed' | 'cancelled' | 'failed';
