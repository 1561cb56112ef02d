/** The worker's `workflowsPath` target: every workflow type the task queue serves. */
export { agentPromptWorkflow } from './prompt-workflow';
export { subagentWorkflow } from './subagent-workflow';
export { agentSessionWorkflow } from './session-workflow';
