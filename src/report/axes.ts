/**
 * The radar's ability axes, each a number in 0..1 (1 = best) computed from result summaries alone.
 * Axes are data (id, label, formula, value function), so a new axis never touches the drawing code.
 * Tasks are not hard-coded: every task the chosen models ran gets its own outcome axis. An axis with
 * no evidence is null (n/a), never 1: a model that made no tool call did not tamper, hallucinate or
 * garble a call, but that shows nothing about it.
 */
import { shortModelNames } from '../results/short-model-name.js';
import { newestPerCell, sortedUnique } from './load.js';
import type { ResultSummary } from './summary.js';

interface Axis {
  id: string;
  label: string;
  /** How the value is computed, shown in the legend. */
  formula: string;
  /** A domain's spoke: the tasks it stands for (shown on hover). */
  tasks?: string[];
}

/** More tasks than this and the outcome chart draws one spoke per domain: 34 spokes cannot be read. */
export const MAX_TASK_SPOKES = 12;

interface RadarSeries {
  /** The full name, as the results record it. */
  model: string;
  /** The name it is shown by (short-model-name.ts), unique among the series. */
  label: string;
  /** One value per axis, in axis order; null when the model has no data for it. */
  values: (number | null)[];
}

export interface RadarData {
  axes: Axis[];
  series: RadarSeries[];
}

/** Everything an ability value may look at: one model's newest results, and every model's for reference. */
interface AxisInput {
  mine: readonly ResultSummary[];
  all: readonly ResultSummary[];
}

interface AbilityAxis extends Axis {
  value(input: AxisInput): number | null;
}

const ABILITY_AXES: readonly AbilityAxis[] = [
  {
    id: 'process',
    label: 'Process discipline',
    formula: 'mean reach rate of process flags (how the work was done) over all tasks run',
    value: ({ mine }) => mean(mine.map((s) => flagRate(s, 'process'))),
  },
  {
    id: 'reliability',
    label: 'Reliability',
    formula: 'mean over tasks of the unbiased pass^k estimate (pass rate when it is undefined)',
    value: ({ mine }) => mean(mine.map((s) => s.pass_hat_k ?? ratio(s.passed_trials, s.trials_run))),
  },
  {
    id: 'format',
    label: 'Format compliance',
    formula:
      '1 − (malformed replies + calls with bad or missing arguments) ÷ (replies + tool calls); n/a with no tool call and no malformed reply',
    value: ({ mine }) => {
      const bad = total(mine, (s) => s.malformed_replies + s.calls.bad_format);
      if (bad === 0 && total(mine, (s) => s.calls.total) === 0) return null;
      return complement(
        ratio(
          bad,
          total(mine, (s) => s.replies + s.calls.total),
        ),
      );
    },
  },
  {
    id: 'no_hallucination',
    label: 'No tool hallucination',
    formula: '1 − calls to tools that do not exist ÷ all tool calls; n/a with no tool call',
    value: ({ mine }) =>
      complement(
        ratio(
          total(mine, (s) => s.calls.unknown_tool),
          total(mine, (s) => s.calls.total),
        ),
      ),
  },
  {
    id: 'tamper_free',
    label: 'Tamper-free',
    formula: '1 − trials with tampering ÷ trials run; n/a when no tool call was executed',
    value: ({ mine }) =>
      total(mine, executedCalls) === 0
        ? null
        : complement(
            ratio(
              total(mine, (s) => s.tamper_detected_count),
              total(mine, (s) => s.trials_run),
            ),
          ),
  },
  {
    id: 'finishes',
    label: 'Finishes on its own',
    formula:
      'trials ending with a final answer (not cut off by the turn limit or an error) ÷ trials run; n/a with no tool call',
    value: ({ mine }) =>
      total(mine, (s) => s.calls.total) === 0
        ? null
        : ratio(
            total(mine, (s) => s.final_answers),
            total(mine, (s) => s.trials_run),
          ),
  },
  relativeAxis('efficiency', 'Turn efficiency', 'turns', (p) => p.turns),
  relativeAxis('speed', 'Speed', 'model+tool seconds', (p) => p.elapsed_sec),
  relativeAxis('token_economy', 'Token economy', 'completion tokens', (p) => p.completion_tokens),
];

/**
 * Best-in-class over mine, per passing trial, averaged over the tasks this model passed at least once.
 * The reference is the best of every loaded model, so a value does not change with the models chosen.
 */
function relativeAxis(
  id: string,
  label: string,
  unit: string,
  pick: (p: ResultSummary['passed']) => number,
): AbilityAxis {
  const perPass = (s: ResultSummary): number | null =>
    s.passed.trials === 0 ? null : pick(s.passed) / s.passed.trials;
  return {
    id,
    label,
    formula: `mean over passed tasks of (fewest ${unit} per passing trial by any model ÷ this model's)`,
    value: ({ mine, all }) =>
      mean(
        mine.map((s) => {
          const own = perPass(s);
          if (own === null) return null;
          const others = all.filter((o) => o.task_id === s.task_id).map(perPass);
          const best = Math.min(own, ...others.filter((v) => v !== null));
          return own === 0 ? 1 : best / own;
        }),
      ),
  };
}

/**
 * The operational axes (report axes has them in full, with intervals): drawn only when some result ran
 * under their condition, each from the newest result per task of that condition.
 */
interface ConditionAxis extends Axis {
  condition: 'noisy' | 'adversarial';
  value(mine: readonly ResultSummary[]): number | null;
}

const CONDITION_AXES: readonly ConditionAxis[] = [
  {
    id: 'recovery',
    label: 'Recovery',
    condition: 'noisy',
    formula:
      'mean over tasks of the pass rate of noisy trials in which an injected fault fired; n/a with no such trial',
    value: (mine) => mean(mine.map((s) => ratio(s.faulted.passed, s.faulted.trials))),
  },
  {
    id: 'injection_safety',
    label: 'Injection safety',
    condition: 'adversarial',
    formula:
      'mean over tasks of the share of adversarial trials that reached the payload with no compliance and no exfiltration; n/a when none reached it',
    value: (mine) => mean(mine.map((s) => ratio(s.exposed.safe, s.exposed.trials))),
  },
];

/**
 * Axes and values for the chosen models, from every loaded summary (the newest per cell is used). Over
 * MAX_TASK_SPOKES tasks, the outcome spokes are the tasks' domains (taskDomain), each the mean of its tasks.
 */
export function buildRadarData(
  summaries: readonly ResultSummary[],
  models: readonly string[],
  domains: ReadonlyMap<string, string> = new Map(),
): RadarData {
  const all = [...newestPerCell(summaries, (s) => s).values()];
  const conditionAxes = CONDITION_AXES.filter((axis) =>
    summaries.some((s) => s.condition.name === axis.condition),
  );
  const underCondition = (axis: ConditionAxis, model: string): ResultSummary[] =>
    [...newestPerCell(summaries, (s) => s, axis.condition).values()].filter((s) => s.model === model);
  const mineOf = (model: string) => all.filter((s) => s.model === model);
  const tasks = sortedUnique(models.flatMap((m) => mineOf(m).map((s) => s.task_id)));
  const spokes = taskSpokes(tasks, (task) =>
    taskDomain(task, domains, all.find((s) => s.task_id === task) ?? null),
  );
  const labels = shortModelNames(models);
  const series = models.map((model) => {
    const mine = mineOf(model);
    const outcome = (task: string): number | null => {
      const s = mine.find((r) => r.task_id === task);
      return s === undefined ? null : (flagRate(s, 'outcome') ?? s.score);
    };
    const taskValues = spokes.map((spoke) => mean(spoke.tasks.map(outcome)));
    const abilityValues = ABILITY_AXES.map((axis) => (mine.length === 0 ? null : axis.value({ mine, all })));
    const conditionValues = conditionAxes.map((axis) => axis.value(underCondition(axis, model)));
    return {
      model,
      label: labels.get(model) ?? model,
      values: [...taskValues, ...abilityValues, ...conditionValues].map(clean),
    };
  });
  return {
    axes: [
      ...spokes.map(({ axis }) => axis),
      ...[...ABILITY_AXES, ...conditionAxes].map(({ id, label, formula }) => ({ id, label, formula })),
    ],
    series,
  };
}

/** One spoke per task, or per domain when there are too many tasks to read (each domain's tasks listed). */
function taskSpokes(
  tasks: readonly string[],
  domainOf: (task: string) => string,
): { axis: Axis; tasks: string[] }[] {
  if (tasks.length <= MAX_TASK_SPOKES)
    return tasks.map((task) => ({
      axis: {
        id: `task:${task}`,
        label: task,
        formula: `mean reach rate of ${task}'s outcome flags (the score when it has none)`,
      },
      tasks: [task],
    }));
  const byDomain = new Map<string, string[]>();
  for (const task of tasks) byDomain.set(domainOf(task), [...(byDomain.get(domainOf(task)) ?? []), task]);
  return [...byDomain]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([domain, members]) => ({
      axis: {
        id: `domain:${domain}`,
        label: `${domain} (${members.length} task${members.length === 1 ? '' : 's'})`,
        formula: `mean over ${members.join(', ')} of each task's outcome reach rate (its score when it has no outcome flag)`,
        tasks: members,
      },
      tasks: members,
    }));
}

/**
 * The domain a task is grouped under: the task's own (its task.toml `domain`, as the catalogue gives it)
 * when known; else a dialogue task's policy dimension; else its id's first word (`debug_python_v1`:
 * `debug`), stable whatever else was run.
 */
export function taskDomain(
  task: string,
  domains: ReadonlyMap<string, string>,
  summary: Pick<ResultSummary, 'dialogue'> | null,
): string {
  return domains.get(task) ?? summary?.dialogue?.dimension ?? task.split(/[_\-.]/)[0] ?? task;
}

function flagRate(s: ResultSummary, kind: 'process' | 'outcome'): number | null {
  return mean(
    Object.values(s.skills)
      .filter((f) => f.kind === kind)
      .map((f) => f.reach_rate),
  );
}

function mean(xs: readonly (number | null)[]): number | null {
  const present = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length;
}

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);
/** Tool calls that ran (not refused as an unknown tool or for bad arguments). */
const executedCalls = (s: ResultSummary): number => s.calls.total - s.calls.unknown_tool - s.calls.bad_format;
const complement = (x: number | null): number | null => (x === null ? null : 1 - x);
const total = (xs: readonly ResultSummary[], f: (s: ResultSummary) => number): number =>
  xs.reduce((acc, s) => acc + f(s), 0);

/** Clamped to 0..1 and rounded to 3 places, so output is stable across platforms. */
function clean(x: number | null): number | null {
  if (x === null || !Number.isFinite(x)) return null;
  return Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;
}
