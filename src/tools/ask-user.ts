import { askUserParameters } from '../core/questions';
import type { WorkflowTool } from './types';

/**
 * `ask_user`: the model asks the user structured questions. The workflow carries it out: the call
 * waits, durably, for an `answerQuestion` signal (or the `durable-agent answer` command), and the
 * answers are its function response.
 */
export const askUserTool: WorkflowTool<typeof askUserParameters> = {
  name: 'ask_user',
  description:
    'Ask the user one to four questions, to learn a preference, settle an ambiguity or choose between ' +
    'approaches. The prompt waits for the answer, for hours if need be, so ask only what you cannot find out.',
  kind: 'communicate',
  runsIn: 'workflow',
  parameters: askUserParameters,
};
