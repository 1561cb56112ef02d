/**
 * The model catalogue, the one place that knows models: names, aliases, the model of each role,
 * token limits, what a family needs (./catalogue) and the generation config of each request kind
 * (./generation). Everything else asks here.
 */
export * from './catalogue';
export * from './generation';
