/**
 * The specialist's registry README. Flush left (the registry stores it byte for byte); the badges and
 * tags follow the spec's conventions, and `request` is the payload key the router sends.
 */
export const SPECIALIST_TITLE = 'Financial Analysis Specialist (SEC EDGAR filings)';

export const SPECIALIST_README = `# Financial Analysis Specialist (SEC EDGAR filings)

![tag:finance](https://img.shields.io/badge/finance-3D8BD3)
![tag:sec-filings](https://img.shields.io/badge/sec--filings-3D8BD3)
![tag:financial-analysis](https://img.shields.io/badge/financial--analysis-3D8BD3)
![tag:domain/finance](https://img.shields.io/badge/finance-3D8BD3)

<description>Financial analysis of US-listed companies from their SEC filings. A supervisor plans the work, a search worker finds current information (recent filings or web news) and a filings analyst reads SEC EDGAR XBRL company facts to compute revenue, net income, gross, operating and net margins, diluted EPS, operating cash flow, capital expenditure, free cash flow and their growth over the fiscal years asked for. Every figure in the answer comes from the filings.</description>

## Use cases

<use_cases>
<use_case>How did Apple's revenue and net margin change over the last three fiscal years?</use_case>
<use_case>Compare Microsoft and Alphabet operating margin in fiscal 2023.</use_case>
<use_case>What was NVIDIA's free cash flow and diluted EPS since 2022?</use_case>
</use_cases>

## Capabilities

- Input: a question in English naming one to three companies (by name or ticker), the figures wanted and the period ("last three fiscal years", "FY2023", "2021 to 2024", "since 2022"). Without figures: revenue, net income and net margin; without a period: the last three fiscal years.
- Output: one message \`{analysis_result: {analysis: [...]}}\` in the session of the request, with the plan (Supervisor), the search results (Search Worker), a table of figures per company with year-over-year changes and the filings they come from (Filings Analyst), and the answer (Supervisor).

## Interaction

Send a signed message with the payload below to this agent's webhook. It answers \`{status: 'analysis_sent'}\` at once and sends the analysis to the sender's address when it is ready (usually seconds).

It also speaks the uAgents chat protocol (AgentChatProtocol 0.3.0): send a \`ChatMessage\` whose text is the question; it acknowledges it with a \`ChatAcknowledgement\` and answers with a \`ChatMessage\` in the same session: the answer, then the plan, the search results and the figures as Markdown sections.

<payload_requirements>
<payload>
<requirement>
<parameter>request</parameter>
<description>The question, in English, about one or more US-listed companies, e.g. "How did Apple's revenue and net margin change over the last three fiscal years?"</description>
</requirement>
</payload>
</payload_requirements>

## Limitations

Annual figures from 10-K (and 20-F/40-F) filings only, as companies tagged them in XBRL; no quarterly figures, prices or forecasts. EPS is as reported by the latest filing for each year, so later share splits are not applied.

## Keywords

financial analysis, SEC filings, EDGAR, 10-K, XBRL, revenue, net income, profit margin, EPS, cash flow, stocks, company fundamentals
`;
