import { beforeAll, describe, expect, it } from 'vitest';
import { searchAgents, type SearchPage } from './fixtures/search-client.ts';
import { craftAgent } from './fixtures/search-seed.ts';
import { seedRegistry } from './fixtures/seeded-registry.ts';

/**
 * Task over context, by default (text/context.ts): the words of a possessive adjunct phrase ("for my plant shop")
 * are the user's circumstances and count half as much as the task ("a logo"), lexically and semantically; they
 * still count, so of two agents for the task the one fitting the circumstances ranks first.
 */

const logos = craftAgent(61, 'Logo Studio', 'Designs a logo or an illustration from a short text prompt.');
const plants = craftAgent(62, 'Plant Doctor', 'Diagnoses a sick plant: watering, light and repotting advice for houseplants.');

const freelanceTax = craftAgent(71, 'Sole Trader Tax', 'Tax return preparation for freelance and small business income.');
const salaryTax = craftAgent(72, 'Payslip Tax', 'Tax return preparation for employees paid a salary.');

let token: string;
const addresses = (page: SearchPage) => page.agents.map((agent) => agent.address);

beforeAll(async () => {
  token = (await seedRegistry([logos, plants, freelanceTax, salaryTax])).token;
});

describe('task over context', () => {
  it('ranks the agent for the task ("a logo") above the agent for the circumstances ("for my plant shop")', async () => {
    const found = addresses(await searchAgents(token, { search_text: 'make a logo for my plant shop' }));
    expect(found).toContain(plants.address);
    expect(found[0]).toBe(logos.address);
  });

  it('still reads the circumstances: of two agents for the task, the one fitting them ranks first', async () => {
    const found = addresses(await searchAgents(token, { search_text: 'a tax return for my freelance business' }));
    expect(found.slice(0, 2).sort()).toEqual([freelanceTax.address, salaryTax.address].sort());
    expect(found[0]).toBe(freelanceTax.address);
  });
});
