/**
 * A task format: how to tell its folders from others and how to read one. Each format is one
 * module (format-*.ts); `loadTasks` asks them in order, so adding a format is one module and one line.
 */
import type { LoadedSkill } from '../skills/load.js';
import type { Task } from '../tasks/types.js';
import type { HarborTask as HarborFolder } from './harbor/load.js';
import type { UnusableHarborTask } from './harbor/unusable.js';

/** What a folder held: tasks to run, and what some commands need of their source. */
export interface FoundTasks {
  tasks: Task[];
  /** Harbor task folders as read: `validate` proves them itself (image, oracle, verifier). */
  harbor: HarborFolder[];
  /**
   * Harbor task folders that cannot run here (a broken task.toml, an unsupported layout): one bad
   * task does not stop the others; `list` shows it, `validate` fails its row, a run records an error.
   */
  unusableHarbor: UnusableHarborTask[];
  /** One line each, for stderr: what a task asks for that agent-bench does not do. */
  warnings: string[];
  /** Skill folders as read: their origin and --skill-ab's pairs. */
  skills: LoadedSkill[];
}

export interface TaskFormat {
  /** What messages call a folder of it, with its marker files. */
  noun: string;
  /** Whether `dir` is a folder of this format (by its marker files; nothing is parsed). */
  claims(dir: string): boolean;
  /** Reads the folder; a broken one throws an AgentBenchError naming every problem. */
  load(dir: string): Partial<FoundTasks>;
}
