// The host a worker serves and a prompt runs on when none is named (src/host-worker.ts).
export { defaultHost } from '../host-worker';
