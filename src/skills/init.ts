/**
 * `agent-bench skill init DIR`: a starter bench_manifest.json for an existing skill folder. It
 * reads SKILL.md for the files it links or names and the scripts it tells the agent to run, and
 * proposes reads, commands, outputs and allowed writes. What only a person can decide (the goal,
 * what counts as done, which scripts are too heavy to run) is left as TODO notes: keys starting
 * with `_`, which the loader ignores, so the starter loads as it is.
 */
import { isBenchOnly, MANIFEST_FILE, SKILL_FILE, type SkillFolder } from './folder.js';

const SCRIPT_EXT = /\.(sh|bash|py|js|mjs|cjs|rb|pl|ts)$/;
const OUTPUT_PATH = /(?:\/workspace\/)?((?:output|out|dist|build|reports?)\/[A-Za-z0-9_./-]*[A-Za-z0-9_])/g;

export interface Proposal {
  manifest: Record<string, unknown>;
  todo: string[];
}

export function proposeManifest(folder: SkillFolder, folderName: string): Proposal {
  const doc = folder.read(SKILL_FILE).toString('utf8');
  const files = [...folder.files.keys()].filter((p) => p !== MANIFEST_FILE && !isBenchOnly(p));
  const mentioned = files.filter((p) => p !== SKILL_FILE && mentions(doc, p));
  const scripts = files.filter((p) => SCRIPT_EXT.test(p) || /^(scripts|bin)\//.test(p));
  const run = scripts.filter((p) => mentioned.includes(p) || doc.includes(basename(p)));
  const reads = mentioned.filter((p) => !scripts.includes(p));
  const outputs = [...new Set([...doc.matchAll(OUTPUT_PATH)].map((m) => m[1] as string))];
  const todo = [
    'goal: write the request a user makes of this skill (it is the task the model gets).',
    run.length === 0
      ? 'required_commands: SKILL.md names no script of the folder; add regular expressions for the commands that must run.'
      : 'required_commands: each matches the script by name; add the arguments that matter (e.g. "make_report\\\\.sh\\\\s+.*--title\\\\s+\\\\S+"), and exit_code where the step must succeed.',
    outputs.length === 0
      ? 'expected_artifacts: SKILL.md names no output path; list the files the agent must produce.'
      : 'expected_artifacts: check the proposed outputs; add artifact_checks on their content.',
    'stubs: list the scripts that are slow, costly or need the network (rendering, image generation, uploads), with the outputs they create.',
    'reference_solution: the tool calls that solve the task, so `agent-bench validate --skill-dir DIR` can prove the manifest satisfiable.',
    ...scripts
      .filter((p) => !run.includes(p))
      .map((p) => `${p}: SKILL.md does not mention it; require it, stub it, or leave it out.`),
  ];
  const manifest: Record<string, unknown> = {
    _todo: todo,
    id: `skill_run_v1_${folderName.replace(/[^A-Za-z0-9_]+/g, '_')}`,
    goal: 'TODO: what a user asks the agent to do with this skill',
    required_reads: ['skill/SKILL.md', ...reads.map((p) => `skill/${p}`)],
    required_commands: run.map((p) => ({ pattern: escapeRegex(basename(p)), exit_code: 0 })),
    expected_artifacts: outputs,
    allowed_writes:
      outputs.length === 0 ? ['output/**'] : [...new Set(outputs.map(topFolder))].map((d) => `${d}/**`),
    max_turns: 20,
    stubs: {},
  };
  return { manifest, todo };
}

/** SKILL.md names the file: by a link, its path (possibly under /workspace/skill/), or in backticks. */
function mentions(doc: string, path: string): boolean {
  return (
    doc.includes(`(${path})`) ||
    doc.includes(`(./${path})`) ||
    doc.includes(`skill/${path}`) ||
    doc.includes(`\`${path}\``)
  );
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

function topFolder(p: string): string {
  return p.split('/')[0] as string;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
