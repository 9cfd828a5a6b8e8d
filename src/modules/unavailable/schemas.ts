// The one answer of every capability a self-hosted Crestwatch does not offer.

/** What upstream's SDK checks on a 503 to raise `CapabilityUnavailableError` instead of a maintenance error. */
export const CAPABILITY_UNAVAILABLE = 'CAPABILITY_UNAVAILABLE';

export const UnavailableResponse = {
  description:
    'Not offered by a self-hosted Crestwatch: `code` is `CAPABILITY_UNAVAILABLE` and `detail` says what to use ' +
    'instead. No `Retry-After`: retrying will not make it available.',
  headers: {
    'X-Request-Id': {
      type: 'string',
      description: 'Identifies the request (also `request_id` in problem bodies).',
    },
  },
  content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } },
};
