import { planWaves } from './waves';

interface Call {
  id: string;
  readOnly: boolean;
}

const r = (id: string): Call => ({ id, readOnly: true });
const w = (id: string): Call => ({ id, readOnly: false });
const ids = (waves: Call[][]) => waves.map((wave) => wave.map((c) => c.id));
const plan = (calls: Call[]) => ids(planWaves(calls, (c) => c.readOnly));

describe('planWaves', () => {
  it('groups consecutive read-only calls and isolates each mutating call, keeping order', () => {
    expect(plan([r('r1'), r('r2'), w('w1'), r('r3'), r('r4')])).toEqual([['r1', 'r2'], ['w1'], ['r3', 'r4']]);
  });

  it('runs mutating calls one per wave', () => {
    expect(plan([w('w1'), w('w2'), w('w3')])).toEqual([['w1'], ['w2'], ['w3']]);
  });

  it('does not let a read join the wave of a preceding write', () => {
    expect(plan([w('w1'), r('r1'), r('r2')])).toEqual([['w1'], ['r1', 'r2']]);
  });

  it('puts all reads in one wave', () => {
    expect(plan([r('a'), r('b'), r('c')])).toEqual([['a', 'b', 'c']]);
  });

  it('plans nothing for no calls', () => {
    expect(planWaves([], () => true)).toEqual([]);
  });
});
