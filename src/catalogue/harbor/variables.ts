/**
 * task.toml's environment variables as Harbor resolves them: a value may name the host's own
 * variables, `${NAME}` or `${NAME:-default}` (the default when NAME is unset or empty), and is
 * otherwise taken as written. A name the host does not set and that has no default is the task's
 * problem, said once per variable, as Harbor refuses to start such a task.
 */

const TEMPLATE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface ResolvedVariables {
  values: Record<string, string>;
  /** `KEY: ${NAME} is not set on this machine` for each variable that could not be resolved. */
  problems: { key: string; message: string }[];
}

export function resolveVariables(
  vars: Readonly<Record<string, string>>,
  host: Readonly<Record<string, string | undefined>>,
): ResolvedVariables {
  const values: Record<string, string> = {};
  const problems: ResolvedVariables['problems'] = [];
  for (const [key, value] of Object.entries(vars)) {
    const unset: string[] = [];
    values[key] = value.replace(TEMPLATE, (_m, name: string, fallback: string | undefined) => {
      const set = host[name];
      if (set !== undefined && set !== '') return set;
      if (fallback !== undefined) return fallback;
      unset.push(name);
      return '';
    });
    if (unset.length > 0)
      problems.push({
        key,
        message: `${unset.map((n) => `\${${n}}`).join(', ')} not set on this machine (Harbor takes it from the host's environment; give a default with \${NAME:-value})`,
      });
  }
  return { values, problems };
}
