/** Kept for the workflow modules that import the model types by this path; new code imports core/failures. */
export { MODEL_ERROR_TYPES, NON_RETRYABLE_MODEL_ERRORS } from './failures';
