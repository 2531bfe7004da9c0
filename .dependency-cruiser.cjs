/**
 * The layer rules, checked by `npm run lint` (dependency-cruiser). Each layer may import only the
 * layers listed for it; everything else is a violation, as is any cycle. The direction, top to bottom
 * (a layer imports only layers to its right, never one beside it in its group):
 *   cli → (ladder, validate, dashboard) → (run, catalogue, report) → (agent, dialogue, skills, kit, judge) →
 *   trial → manifest → scoring → tasks → discovery → models → (results, sandbox, evidence, stats) → util
 * and the task folders' flags.ts (task-defs, tasks/<id>/) → kit.
 * Reports and the dashboard read results files only: they never import the runner. The task loaders
 * (src/catalogue/, one per format) build tasks from data with the skill, manifest and scoring checks,
 * so they sit above those, and only the CLI imports them. src/tasks/ is the vocabulary below them
 * all (the task union, variants, versions); the task-author kit (src/kit/) is what flags.ts imports.
 */
const layers = {
  util: [],
  // Estimators and intervals: pure numbers, for scoring, the runner and the reports alike.
  stats: ['util'],
  results: ['util'],
  evidence: ['util'],
  sandbox: ['util'],
  models: ['results', 'util'],
  discovery: ['models', 'results', 'util'],
  tasks: ['models', 'sandbox', 'results', 'util'],
  scoring: ['tasks', 'sandbox', 'models', 'evidence', 'results', 'stats', 'util'],
  // What every manifest format shares: reading a folder safely, ids and paths, scripted runs, patterns,
  // artifact and command checks (a skill's bench_manifest.json and a task folder's task.toml alike).
  manifest: ['scoring', 'tasks', 'sandbox', 'models', 'evidence', 'results', 'util'],
  skills: ['manifest', 'scoring', 'tasks', 'sandbox', 'models', 'evidence', 'results', 'util'],
  // The task-author kit: the vocabulary of checks a task folder's flags.ts imports (src/kit/index.ts).
  kit: ['manifest', 'scoring', 'tasks', 'sandbox', 'models', 'evidence', 'results', 'util'],
  // The task folders under tasks/<id>/: their flags.ts imports the kit and nothing else of ours.
  'task-defs': ['task-defs', 'kit'],
  // The trial kernel: one runTrial for every kind of task, the turn engine, the trial record, error
  // trials, conditions (faults, injections) and who a failure is charged to.
  trial: ['scoring', 'tasks', 'sandbox', 'models', 'evidence', 'results', 'stats', 'util'],
  // The sandbox's responder: the built-in tools and MCP servers, the workspace and the flag judge.
  agent: ['trial', 'scoring', 'tasks', 'sandbox', 'models', 'evidence', 'results', 'util'],
  // Dialogue tasks: a mock environment, a simulated user and the scenario checks, on the trial kernel.
  dialogue: ['trial', 'scoring', 'tasks', 'models', 'results', 'util'],
  // The task loaders, one per format (task folder, Harbor, skill, dialogue pack), behind one loadTasks,
  // what the folder formats share (manifest text, problems, services) and the Harbor exporter.
  catalogue: ['dialogue', 'skills', 'manifest', 'scoring', 'tasks', 'sandbox', 'models', 'evidence', 'results', 'util'],
  // The optional transcript judge (--judge-model): an LLM's grade, recorded beside the verdict.
  judge: ['tasks', 'models', 'results', 'util'],
  run: ['dialogue', 'agent', 'judge', 'trial', 'scoring', 'tasks', 'sandbox', 'models', 'discovery', 'results', 'util'],
  validate: ['run', 'agent', 'trial', 'scoring', 'tasks', 'sandbox', 'models', 'results', 'util'],
  ladder: ['run', 'tasks', 'sandbox', 'models', 'discovery', 'results', 'stats', 'util'],
  report: ['results', 'stats', 'util'],
  dashboard: ['report', 'results', 'util', 'models'],
};

const SPECIAL_PATHS = {
  'task-defs': '^tasks/',
};
const pathOf = (layer) => SPECIAL_PATHS[layer] ?? `^src/${layer}/`;

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
      comment: 'run/ gets its tasks from the CLI; only the CLI (and tests) load tasks (src/catalogue/)',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/cli/', pathOf('catalogue')] },
      to: { path: '^src/catalogue/' },
    },
    {
      name: 'sandbox-docker-private',
      comment:
        "src/sandbox/docker/ is how the sandbox talks to the engine (containers, execs, tars, labels): only src/sandbox/ imports it; everything else goes through the sandbox's public entry (src/sandbox/index.ts, types.ts), so the engine side can change (a Harbor environment, verifier containers, another runtime) without its callers changing, and no caller makes containers of its own. Tests may reach inside.",
      severity: 'error',
      from: { path: '^(src|tasks|bin)/', pathNot: '^src/sandbox/' },
      to: { path: '^src/sandbox/docker/' },
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
