/** The "Config file" section of docs/commands.md, from the options table (reference.ts writes the rest). */
import { ruleText } from './rules.js';
import { configKey } from './spec.js';
import { optionsOf } from './table.js';

/** The section's example: the unit tests read it as a config file of `run`. */
export const CONFIG_EXAMPLE = `# agent-bench run --config bench.toml --model qwen3:8b --k 3   (the flag wins: 3 trials)
tasks = "debug_python_v1,refactor_extract_js_v1"
k = 5
early-stop = true
conditions = "clean,noisy"
failure-rate = 0.3
tasks-dir = ["./my-tasks"]
`;

export function configFileSection(): string[] {
  return [
    '## Config file',
    '',
    '`run` and `ladder` take `--config FILE`: their options from a JSON (`.json`) or TOML (`.toml`) file. A key is',
    "the option's long flag without the dashes; a value is what the flag takes, in the file's own types: a number",
    'for a number, `true` or `false` for a switch, a list of strings for a repeatable flag. A flag given on the',
    'command line wins over the file. Values mean what they would as flags (paths: from the working directory).',
    'An unknown key, a value of the wrong type or one the flag would refuse stops the command with one line',
    "naming the file and the key. `agent-bench config schema run` (or `ladder`) prints the file's JSON Schema, for",
    'editors; a JSON file may name it in `"$schema"`.',
    '',
    '```toml',
    ...CONFIG_EXAMPLE.trimEnd().split('\n'),
    '```',
    '',
    '| Key | Value | Commands |',
    '| --- | --- | --- |',
    ...optionsOf().map(
      ([, spec]) => `| \`${configKey(spec)}\` | ${ruleText(spec.rule)} | ${spec.commands.join(', ')} |`,
    ),
    '',
  ];
}
