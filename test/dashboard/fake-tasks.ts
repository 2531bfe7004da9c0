/** A stand-in task registry for the run panel tests (the real one is tasks/index.ts). */
export function allTasks(): { id: string; meta: { description: string; domain: string } }[] {
  return [
    { id: 'debug_python_v1', meta: { description: 'Fix a failing Python test suite', domain: 'python' } },
    { id: 'tdd_order_v1', meta: { description: 'Test-driven FizzBuzz', domain: 'python' } },
    { id: 'skill_run_v1_report', meta: { description: 'Drive the report skill', domain: 'skill' } },
  ];
}
