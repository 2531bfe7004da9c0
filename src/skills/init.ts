/**
 * `agent-bench skill init DIR`: a starter bench_manifest.json for a skill folder (and a SKILL.md
 * template for a new one). It reads SKILL.md for the files it links or names and the scripts it tells
 * the agent to run, and proposes reads, commands, outputs, allowed writes and a reference_solution
 * skeleton that replays them. What only a person can decide (the goal, what counts as done, the
 * arguments that solve the task, which scripts are too heavy to run) is left as TODO notes: keys
 * starting with `_`, which the loader ignores, so the starter loads as it is.
 */
import { isBenchOnly, MANIFEST_FILE, SKILL_FILE, type SkillFolder } from '../manifest/folder.js';
import { referenceSkeleton } from './init-reference.js';

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
  // In the order SKILL.md names them, which is the order the reference solution runs them in.
  const run = scripts
    .filter((p) => mentioned.includes(p) || doc.includes(basename(p)))
    .sort((a, b) => doc.indexOf(basename(a)) - doc.indexOf(basename(b)) || a.localeCompare(b));
  const reads = mentioned.filter((p) => !scripts.includes(p));
  const outputs = [...new Set([...doc.matchAll(OUTPUT_PATH)].map((m) => m[1] as string))];
  const todo = [
    'goal: write the request a user makes of this skill (it is the task the model gets).',
    run.length === 0
      ? 'required_commands: SKILL.md names no script of the folder; add regular expressions for the commands that must run.'
      : 'required_commands: each matches the script by name; add the arguments that matter (e.g. "make_report\\\\.sh\\\\s+.*--title\\\\s+\\\\S+"), and exit_code where the step must succeed.',
    outputs.length === 0
      ? 'expected_artifacts: SKILL.md names no output path; list the files the agent must produce. Until the manifest checks an outcome (expected_artifacts, artifact_checks or harness_checks), validate fails its reference solution: process flags such as no_tool_hallucination count only with an outcome.'
      : 'expected_artifacts: check the proposed outputs; add artifact_checks on their content.',
    'stubs: list the scripts that are slow, costly or need the network (rendering, image generation, uploads), with the outputs they create.',
    'reference_solution: a skeleton that reads the files and runs the scripts above; fill in each command marked "# TODO" with the arguments that solve the task, and the final answer, so `agent-bench validate --skill-dir DIR` can prove the manifest satisfiable.',
    ...scripts
      .filter((p) => !run.includes(p))
      .map((p) => `${p}: SKILL.md does not mention it; require it, stub it, or leave it out.`),
  ];
  const requiredReads = ['skill/SKILL.md', ...reads.map((p) => `skill/${p}`)];
  const manifest: Record<string, unknown> = {
    _todo: todo,
    id: `skill_run_v1_${folderName.replace(/[^A-Za-z0-9_]+/g, '_')}`,
    goal: 'TODO: what a user asks the agent to do with this skill',
    required_reads: requiredReads,
    required_commands: run.map((p) => ({ pattern: escapeRegex(basename(p)), exit_code: 0 })),
    expected_artifacts: outputs,
    allowed_writes:
      outputs.length === 0 ? ['output/**'] : [...new Set(outputs.map(topFolder))].map((d) => `${d}/**`),
    max_turns: 20,
    stubs: {},
    reference_solution: referenceSkeleton(doc, requiredReads, run),
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

/** The SKILL.md a new skill folder starts with: headings to fill in, no path a proposal would pick up. */
export function skillTemplate(name: string): string {
  return [
    `# ${name}`,
    '',
    'TODO: what this skill does, in a sentence or two.',
    '',
    '## Steps',
    '',
    '1. TODO: the first step. Name the files to read and the scripts to run by their paths in this',
    '   folder (it is mounted at /workspace/skill), with the command to run, indented as code.',
    '2. TODO: how to check the result.',
    '',
    '## Notes',
    '',
    'TODO: what to avoid, and what the result must look like.',
    '',
  ].join('\n');
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
