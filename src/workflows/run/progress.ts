import type { McpCatalog } from '../../core/mcp';
import type { LoopState } from '../../core/loop/detection';
import type { ModelUnavailability } from '../../core/model-availability';
import type { PolicyRule } from '../../core/policy/types';
import type { PromptProgress } from '../api';
import type { FrameMemo } from '../state/request-frame';
import type { PromptState } from '../state/prompt-state';

/**
 * The run's progress, loop detection, MCP catalogue and request frame, written only here: the modules that own the
 * logic of each (turns, plan mode, model choice, loop detection, MCP discovery) call these.
 */

/** A model turn begins (`taken: false` when it was abandoned and is sent again). */
export function countTurn(state: PromptState, taken = true): void {
  state.progress.turns += taken ? 1 : -1;
}

export function addResponse(state: PromptState, text: string): void {
  state.progress.response += text;
}

/** Plan mode remembers the mode to go back to. */
export function rememberModeBeforePlan(state: PromptState): void {
  state.progress.modeBeforePlan = state.progress.mode;
}

export function setTodos(state: PromptState, todos: PromptProgress['todos']): void {
  state.progress.todos = todos;
}

export function setTopics(state: PromptState, topics: PromptProgress['topics']): void {
  state.progress.topics = topics;
}

export function addSessionRule(state: PromptState, rule: PolicyRule): void {
  state.progress.sessionRules.push(rule);
}

export function setModel(state: PromptState, model: string): void {
  state.progress.model = model;
}

export function setUnavailable(state: PromptState, unavailable: ModelUnavailability[]): void {
  state.progress.unavailable = unavailable;
}

/** The run fell back once; no second fallback. */
export function markFellBack(state: PromptState): void {
  state.progress.fellBack = true;
}

export function setPublishedStatus(state: PromptState, value: string): void {
  state.progress.publishedStatus = value;
}

export function setLoop(state: PromptState, loop: LoopState): void {
  state.loop = loop;
}

export function setMcp(state: PromptState, mcp: McpCatalog): void {
  state.mcp = mcp;
}

export function rememberFrame(state: PromptState, frame: FrameMemo): void {
  state.frame = frame;
}
