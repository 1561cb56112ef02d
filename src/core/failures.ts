/**
 * Every failure type the agent raises or recognises, in one table: the `type` of an
 * `ApplicationFailure` thrown by an activity or the workflow, or the error type of a status report
 * the client builds. Types are recorded in workflow histories and matched by retry policies and the
 * CLI, so a type string never changes; add a row instead.
 */

/** The CLI's exit codes, Gemini CLI's. */
export const EXIT_CODES = { ok: 0, error: 1, auth: 41, input: 42, config: 52, turnLimit: 53, cancelled: 130 } as const;

export interface FailureKind {
  type: string;
  /** Whether Temporal may retry the activity that failed with it (false: raised as non-retryable). */
  retryable: boolean;
  /** The CLI's exit code when a prompt ends with it. */
  exitCode: number;
  /** What the user can change, where the message says it. */
  hint?: string;
}

const CHECK_MODEL = 'Check the model name (-m).';

export const FAILURES = {
  modelRateLimit: { type: 'ModelCall.RateLimit', retryable: true, exitCode: EXIT_CODES.error },
  modelServer: { type: 'ModelCall.ServerError', retryable: true, exitCode: EXIT_CODES.error },
  modelNetwork: { type: 'ModelCall.Network', retryable: true, exitCode: EXIT_CODES.error },
  modelAuth: { type: 'ModelCall.Auth', retryable: false, exitCode: EXIT_CODES.auth, hint: 'Check GEMINI_API_KEY.' },
  modelNotFound: { type: 'ModelCall.NotFound', retryable: false, exitCode: EXIT_CODES.error, hint: CHECK_MODEL },
  modelBadRequest: { type: 'ModelCall.BadRequest', retryable: false, exitCode: EXIT_CODES.error, hint: CHECK_MODEL },
  /** A utility call (loop check, router, next speaker) answered without the JSON it was asked for. */
  modelInvalidResponse: { type: 'ModelCall.InvalidResponse', retryable: true, exitCode: EXIT_CODES.error },
  /** Still invalid after the in-activity mid-stream retries: ends the prompt. */
  modelInvalidStream: { type: 'ModelCall.InvalidStream', retryable: false, exitCode: EXIT_CODES.error },
  modelUnknown: { type: 'ModelCall.Unknown', retryable: true, exitCode: EXIT_CODES.error },
  turnLimit: { type: 'TurnLimit', retryable: false, exitCode: EXIT_CODES.turnLimit },
  /** The session's `maxSessionTurns` is reached: this prompt and every later one of the session ends at once. */
  sessionTurnLimit: { type: 'SessionTurnLimit', retryable: false, exitCode: EXIT_CODES.turnLimit },
  loopDetected: { type: 'LoopDetected', retryable: false, exitCode: EXIT_CODES.error },
  /** `GEMINI_SYSTEM_MD` names a file the worker cannot read: every request would fail the same way. */
  systemPromptFile: { type: 'SystemPromptFile', retryable: false, exitCode: EXIT_CODES.config },
  contextWindowOverflow: { type: 'ContextWindowOverflow', retryable: false, exitCode: EXIT_CODES.error },
  /** A prompt's `@path` names nothing in the workspace (Gemini CLI: a fatal input error). */
  atPath: { type: 'AtPathReference', retryable: false, exitCode: EXIT_CODES.input },
  /** A workflow error that was not an ApplicationFailure (a bug): wrapped so the task is not retried forever. */
  internal: { type: 'InternalError', retryable: false, exitCode: EXIT_CODES.error },
  /** An ApplicationFailure without a type, or a client-side error of no known kind. */
  error: { type: 'Error', retryable: false, exitCode: EXIT_CODES.error },
  noWorker: {
    type: 'NoWorker',
    retryable: false,
    exitCode: EXIT_CODES.error,
    hint: 'start one with `durable-agent server` or `durable-agent worker`',
  },
  cancelled: { type: 'Cancelled', retryable: false, exitCode: EXIT_CODES.cancelled },
  terminated: { type: 'Terminated', retryable: false, exitCode: EXIT_CODES.error },
} as const satisfies Record<string, FailureKind>;

/** A sub-agent's run that ended without its goal: `Subagent.<terminate reason>` (a result, not thrown). */
export const SUBAGENT_FAILURE_PREFIX = 'Subagent.';

/** The model activities' failure types, by the classifier's names. */
export const MODEL_ERROR_TYPES = {
  rateLimit: FAILURES.modelRateLimit.type,
  server: FAILURES.modelServer.type,
  network: FAILURES.modelNetwork.type,
  auth: FAILURES.modelAuth.type,
  notFound: FAILURES.modelNotFound.type,
  badRequest: FAILURES.modelBadRequest.type,
  invalidResponse: FAILURES.modelInvalidResponse.type,
  invalidStream: FAILURES.modelInvalidStream.type,
  unknown: FAILURES.modelUnknown.type,
} as const;

/**
 * The classifier's non-retryable types, listed in the model retry policy too: retrying cannot help,
 * the request or the credentials must change. (`InvalidStream` is marked non-retryable where it is raised.)
 */
export const NON_RETRYABLE_MODEL_ERRORS: string[] = [
  MODEL_ERROR_TYPES.auth,
  MODEL_ERROR_TYPES.notFound,
  MODEL_ERROR_TYPES.badRequest,
];

const BY_TYPE: ReadonlyMap<string, FailureKind> = new Map(Object.values(FAILURES).map((kind) => [kind.type, kind]));

/** The row of a failure type; undefined for a type this agent does not raise (a hook's, a custom one). */
export function failureKind(type: string | undefined): FailureKind | undefined {
  return type === undefined ? undefined : BY_TYPE.get(type);
}
