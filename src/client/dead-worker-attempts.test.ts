import { localPidOf } from './dead-worker-attempts';
import { processAlive } from '../process-alive';

describe('localPidOf', () => {
  it('reads the pid of an identity of this host only', () => {
    expect(localPidOf('1234@box', 'box')).toBe(1234);
    expect(localPidOf('1234@other', 'box')).toBeUndefined();
    expect(localPidOf('worker-a', 'box')).toBeUndefined();
    expect(localPidOf('0@box', 'box')).toBeUndefined();
    expect(localPidOf('12@box@x', 'box')).toBeUndefined();
  });
});

describe('processAlive', () => {
  it('sees this process alive', () => {
    expect(processAlive(process.pid)).toBe(true);
  });
});
