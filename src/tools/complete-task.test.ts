import { completeTaskTool } from './complete-task';
import { toFunctionDeclaration } from './index';

describe('complete_task', () => {
  it('is a workflow tool whose generic declaration takes any object', () => {
    expect(completeTaskTool).toMatchObject({ name: 'complete_task', kind: 'other', runsIn: 'workflow' });
    expect(toFunctionDeclaration(completeTaskTool).parametersJsonSchema).toMatchObject({ type: 'object' });
  });
});
