/** What a workflow-run tool answers: text for the model, ok or not. */
export interface WorkflowToolResult {
  ok: boolean;
  /** The answer, or only its start when `responseRef` holds the whole response. */
  text: string;
  /** Store reference of a response too long for history (`invoke_agent` with a long report). */
  responseRef?: string;
}
