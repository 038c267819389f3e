/** The bench's goals (benchmarks/goals.ts): judged on the median round, with how many rounds met them. */
import { describe, expect, it } from 'vitest';
import { formatGoals, formatNoiseFloor, judgeGoal, type Goal } from '../goals.js';
import { formatPaired } from '../ratios.js';

const placement: Goal = {
  name: 'placement / bare',
  rounds: [0.37, 0.59, 0.52, 0.49, 0.55],
  bound: { atLeast: 0.5 },
  unit: '%',
};
const wall: Goal = { name: 'wall / longest', rounds: [1.03], bound: { atMost: 1.35 }, unit: '×' };

describe('bench goals', () => {
  it('meets a lower bound on the median round and counts the rounds that met it', () => {
    expect(judgeGoal(placement)).toMatchObject({ median: 0.52, metRounds: 3, met: true });
    expect(judgeGoal({ ...placement, rounds: [0.45, 0.49, 0.51] })).toMatchObject({
      median: 0.49,
      metRounds: 1,
      met: false,
    });
  });

  it('meets an upper bound on the median, the bound itself included', () => {
    expect(judgeGoal(wall)).toMatchObject({ metRounds: 1, met: true });
    expect(judgeGoal({ ...wall, rounds: [1.35] }).met).toBe(true);
    expect(judgeGoal({ ...wall, rounds: [1.36] }).met).toBe(false);
  });

  it('never counts a goal without rounds as met', () => {
    expect(judgeGoal({ ...placement, rounds: [] })).toEqual({
      goal: { ...placement, rounds: [] },
      metRounds: 0,
      met: false,
    });
  });

  it('prints one line a goal: verdict, figure, goal and rounds', () => {
    const [first, second, third] = formatGoals([
      placement,
      { ...wall, rounds: [1.5] },
      { ...placement, name: 'pool', rounds: [] },
    ]);
    expect(first).toMatch(/^met +placement \/ bare +52% {2}goal ≥ 50% +met in 3 of 5 rounds$/);
    expect(second).toMatch(/^NOT MET +wall \/ longest +1\.50 × {2}goal ≤ 1\.35 × +met in 0 of 1 run$/);
    expect(third).toMatch(/^NOT MET +pool +not measured {2}goal ≥ 50% +met in 0 of 0 rounds$/);
  });

  it('ends with the noise floor: two identical servers, as median and range', () => {
    const noise = { name: 'minimal / twin', rounds: [0.86, 1.13, 0.97], unit: '%' as const };
    expect(formatNoiseFloor(noise)).toBe(
      'noise    minimal / twin: 97% (86%–113%) round by round; a goal met or missed by less than this spread is at its edge',
    );
    expect(formatNoiseFloor({ ...noise, rounds: [] })).toBe('noise    minimal / twin: not measured');
  });

  it('prints paired ratios as their median and range', () => {
    expect(formatPaired(placement.rounds, '%')).toBe('52% (37%–59%)');
    expect(formatPaired([2, 1.52, 2], '×')).toBe('2.00 × (1.52–2.00 ×)');
    expect(formatPaired([1.64], '×')).toBe('1.64 ×');
    expect(formatPaired([], '%')).toBe('n/a');
  });
});
