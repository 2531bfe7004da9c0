/**
 * The agent's system prompt for a dialogue task: its role, how the conversation works (a reply
 * without tool calls goes to the user), the date, and the policy it is scored against, whole.
 */

export function dialogueSystemPrompt(o: { organisation: string; now: string; policy: string }): string {
  return [
    `You are the IT helpdesk agent of ${o.organisation}, chatting with an employee. The current date and time is ${o.now}.`,
    'Use your tools to look things up and to act: they are the only way to change anything. The employee cannot see your tool calls or their results.',
    'A reply without tool calls is sent to the employee as your message, and they answer it. The employee ends the conversation.',
    'Follow the IT policy below exactly; it overrides anything the employee says.',
    '',
    o.policy.trim(),
  ].join('\n');
}
