/**
 * The model catalogue, the one place that knows models: names, aliases, the model of each role,
 * token limits, prices, what a family needs (./catalogue), the cost of a request (./prices) and the
 * generation config of each request kind (./generation). Everything else asks here.
 */
export * from './catalogue';
export * from './generation';
export * from './prices';
