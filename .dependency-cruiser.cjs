/**
 * The layer rules, checked by `npm run lint` (dependency-cruiser). Each layer may import only the
 * layers listed for it; everything else is a violation, as is any cycle. The direction, top to bottom:
 *   cli → (ladder, validate, dashboard, report) → run → agent → (scoring, tasks, skills) →
 *   (models, sandbox, discovery, evidence) → results → util
 * Reports and the dashboard read results files only: they never import the runner.
 */
const layers = {
  util: [],
  results: ['util'],
  evidence: ['util'],
  sandbox: ['util'],
  models: ['results', 'util'],
  discovery: ['models', 'results', 'util'],
  tasks: ['models', 'sandbox', 'results', 'util'],
  scoring: ['tasks', 'sandbox', 'models', 'evidence', 'results', 'util'],
  skills: ['scoring', 'tasks', 'sandbox', 'models', 'evidence', 'results', 'util'],
  // The task definitions under tasks/<id>/ and the catalogue (tasks/index.ts).
  'task-defs': ['task-defs', 'skills', 'scoring', 'tasks', 'sandbox', 'models', 'evidence', 'results', 'util'],
  agent: ['scoring', 'tasks', 'sandbox', 'models', 'evidence', 'results', 'util'],
  run: ['agent', 'scoring', 'tasks', 'sandbox', 'models', 'discovery', 'results', 'util'],
  validate: ['run', 'agent', 'scoring', 'tasks', 'sandbox', 'models', 'results', 'util'],
  ladder: ['run', 'tasks', 'sandbox', 'models', 'discovery', 'results', 'util'],
  report: ['results', 'util'],
  dashboard: ['report', 'results', 'util', 'models'],
};

const pathOf = (layer) => (layer === 'task-defs' ? '^tasks/' : `^src/${layer}/`);

const layerRules = Object.entries(layers).map(([layer, allowed]) => ({
  name: `layer-${layer}`,
  comment: `${layer} may import only: ${allowed.join(', ') || 'nothing of ours'} (see .dependency-cruiser.cjs)`,
  severity: 'error',
  from: { path: pathOf(layer) },
  to: {
    path: '^(src|tasks)/',
    pathNot: [pathOf(layer), ...allowed.map(pathOf)],
  },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'run-receives-tasks',
      comment: 'run/ gets its tasks from the CLI; only the CLI (and tests) read the catalogue',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^tasks/index\\.ts$' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-test',
      comment: 'product code never imports the tests',
      severity: 'error',
      from: { path: '^(src|tasks|bin)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a type from the runner is still a dependency on it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^src/dashboard/static/' },
  },
};
