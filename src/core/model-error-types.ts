/** Failure types of the model activity, shared by the activity (which raises them) and the workflow's retry policy. */
export const MODEL_ERROR_TYPES = {
  rateLimit: 'ModelCall.RateLimit',
  server: 'ModelCall.ServerError',
  network: 'ModelCall.Network',
  auth: 'ModelCall.Auth',
  notFound: 'ModelCall.NotFound',
  badRequest: 'ModelCall.BadRequest',
  invalidResponse: 'ModelCall.InvalidResponse',
  /** Still invalid after the in-activity mid-stream retries: ends the prompt. */
  invalidStream: 'ModelCall.InvalidStream',
  unknown: 'ModelCall.Unknown',
} as const;

/** Retrying these cannot help: the request or the credentials must change. */
export const NON_RETRYABLE_MODEL_ERRORS: string[] = [MODEL_ERROR_TYPES.auth, MODEL_ERROR_TYPES.notFound, MODEL_ERROR_TYPES.badRequest];
