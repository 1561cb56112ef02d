// The host a worker serves and a prompt runs on when none is named (src/worker/host.ts).
export { defaultHost } from '../worker/host';
