/**
 * The operator verifies one of its own agents: `PUT /v1/featured-agents/{address}` with the admin token. The local
 * stack does it for the specialist, the operator's reference agent, which llm1-agentic then ranks as verified
 * (docs/decisions/0121); a deployment's operator does the same for the agents it vouches for.
 */
export async function featureAgent(registryUrl: string, adminToken: string, address: string): Promise<void> {
  const response = await fetch(`${registryUrl}/v1/featured-agents/${address}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${adminToken}` },
  });
  if (!response.ok) throw new Error(`featuring ${address} failed (${response.status}): ${await response.text()}`);
}
