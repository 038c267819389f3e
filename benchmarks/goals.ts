/**
 * The bench's goals (issue 21) judged from its paired rounds: a goal is met when the median
 * round meets it, and the verdict says how many rounds did, since one server's cost moves
 * between rounds on a shared machine. A figure that meets its goal in 3 rounds of 5 is
 * at its edge; one that meets it in 5 of 5 is not.
 */
import { formatPaired, formatRatio, median, type RatioUnit } from './ratios.js';

/** Issue 21's goals, as ratios: stated once, for the Goals block and every line that names them. */
export const GOALS = {
  wallOverLongestCheck: { atMost: 1.35 },
  receiverOverMinimalByCpu: { atLeast: 0.9 },
  poolTwoOverOne: { atLeast: 1.6 },
  placementOverBareByCpu: { atLeast: 0.5 },
} as const;

/** A goal's bound as printed, e.g. "≥ 90%" or "≤ 1.35 ×". */
export function formatBound(bound: Goal['bound'], unit: RatioUnit): string {
  return 'atLeast' in bound ? `≥ ${formatRatio(bound.atLeast, unit)}` : `≤ ${formatRatio(bound.atMost, unit)}`;
}

export interface Goal {
  name: string;
  /** The figure in each paired round (or each run, for a goal measured once a run). */
  rounds: readonly number[];
  /** The figure must be at least, or at most, this (a ratio: 0.5 for 50%). */
  bound: { atLeast: number } | { atMost: number };
  unit: RatioUnit;
}

export interface GoalVerdict {
  goal: Goal;
  /** Undefined when the bench measured no round for the goal. */
  median?: number;
  metRounds: number;
  met: boolean;
}

export function judgeGoal(goal: Goal): GoalVerdict {
  const meets = (figure: number): boolean =>
    'atLeast' in goal.bound ? figure >= goal.bound.atLeast : figure <= goal.bound.atMost;
  const metRounds = goal.rounds.filter(meets).length;
  if (goal.rounds.length === 0) return { goal, metRounds, met: false };
  const middle = median(goal.rounds);
  return { goal, median: middle, metRounds, met: meets(middle) };
}

/** One line a goal: verdict, name, median figure, goal, and how many rounds met it. */
export function formatGoals(goals: readonly Goal[]): string[] {
  const verdicts = goals.map(judgeGoal);
  const nameWidth = Math.max(...goals.map((goal) => goal.name.length));
  return verdicts.map(({ goal, median: figure, metRounds, met }) => {
    const bound = formatBound(goal.bound, goal.unit);
    const measured = figure === undefined ? 'not measured' : formatRatio(figure, goal.unit);
    const rounds = `${metRounds} of ${goal.rounds.length} ${goal.rounds.length === 1 ? 'run' : 'rounds'}`;
    return `${(met ? 'met' : 'NOT MET').padEnd(8)} ${goal.name.padEnd(nameWidth)}  ${measured.padStart(12)}  goal ${bound.padEnd(8)}  met in ${rounds}`;
  });
}

/** Two identical servers measured as the goals are, paired round by round: how far apart the bench reads the same cost. */
export interface NoiseFloor {
  name: string;
  rounds: readonly number[];
  unit: RatioUnit;
}

/** The Goals block's last line: the noise floor, so that a goal met or missed by less than it reads as undecided. */
export function formatNoiseFloor(noise: NoiseFloor): string {
  if (noise.rounds.length === 0) return `noise    ${noise.name}: not measured`;
  return `noise    ${noise.name}: ${formatPaired(noise.rounds, noise.unit)} round by round; a goal met or missed by less than this spread is at its edge`;
}
