/** A stand-in task catalogue for the run panel tests (the real one is src/catalogue/built-in.ts). */
export function allTasks(): {
  id: string;
  kind: string;
  source?: { from: { noun: string } };
  meta: { description: string; domain: string };
}[] {
  return [
    {
      id: 'debug_python_v1',
      kind: 'sandbox',
      meta: { description: 'Fix a failing Python test suite', domain: 'python' },
    },
    { id: 'tdd_order_v1', kind: 'sandbox', meta: { description: 'Test-driven FizzBuzz', domain: 'python' } },
    {
      id: 'skill_run_v1_report',
      kind: 'skill',
      source: { from: { noun: 'skill' } },
      meta: { description: 'Drive the report skill', domain: 'skill' },
    },
  ];
}
