/** What the process reads from its environment; the configuration files are read by ./workspace. */
export { loadConfig, type Config } from './env';
export { ConfigError } from './errors';
