/**
 * The Python agents the docs show running unchanged: each ```python block that is a whole agent (it imports
 * uagents and creates `agent = Agent(…)`), as written, so that the tests deploy exactly what a reader copies.
 */
export function documentedAgents(markdown: string): string[] {
  return [...markdown.matchAll(/```python\n([\s\S]*?)```/g)]
    .map((block) => block[1]!)
    .filter((code) => /^from uagents import /m.test(code) && /^agent = Agent\(/m.test(code));
}
