/**
 * Marketplace part of `npm run bench` (scripts/bench.ts measures; this file seeds and describes).
 *
 * - 10,000 ACTIVE agents, bulk-inserted in batches (em.insertMany), with varied names, taglines and
 *   descriptions drawn from per-category vocabularies, so the full-text index (search_vector, GIN) and
 *   the ILIKE fallback of AgentService.search have real work; about a quarter speak of translation.
 * - One conversation with 200 messages between a fresh consumer wallet and one of those agents.
 *
 * and the two scenarios measured over HTTP and directly through the service:
 *   GET /api/conversations/:id/messages?limit=100   wallet-signed (signed once, headers reused: a GET
 *                                                   signature stays valid for its 5-minute window)
 *   GET /api/agents/search?query=translation        public
 */
import { randomBytes, randomUUID } from 'node:crypto';
import bs58 from 'bs58';
import { generateKeypair, keypairSigner, signedHeaders } from '../client-sdk/wallet.ts';
import type { RunningServer } from '../server/app.ts';
import { newAgentRow } from '../server/marketplace/agents.ts';
import { Agent, Message } from '../server/marketplace/entities.ts';
import { CATEGORIES } from '../server/marketplace/schemas.ts';

export const SEEDED_AGENTS = 10_000;
export const SEEDED_MESSAGES = 200;
/** Rows per INSERT: ~20 columns each keeps a batch far below PostgreSQL's 65,535 bind parameters. */
const INSERT_BATCH = 1_000;
const MESSAGE_PAGE = 100;
export const SEARCH_QUERY = 'translation';
const SEARCH_PAGE = 20;

type Category = (typeof CATEGORIES)[number];

/** One scenario: the HTTP request autocannon repeats, and the same work without HTTP. */
export interface MarketplaceScenario {
  scenario: string;
  http: { path: string; headers: Record<string, string> };
  direct: { path: string; operation: () => Promise<unknown> }[];
}

export interface MarketplaceSetup {
  /** What was seeded and how long it took, one line each, for the report. */
  notes: string[];
  scenarios: MarketplaceScenario[];
}

// ---- seed text ---------------------------------------------------------------------------------

const VOCABULARY: Record<Category, { nouns: string[]; taglines: string[]; sentences: string[] }> = {
  Translation: {
    nouns: ['Lingua', 'Polyglot', 'Babel', 'Rosetta', 'Interpreter', 'Localizer', 'Glossary', 'Dialect'],
    taglines: [
      'Fast, faithful translation between 40 languages',
      'Legal and medical document translation with terminology checks',
      'Localization of apps, games and websites',
      'Subtitle translation and timing for video',
      'Technical manuals translated by domain-tuned models',
    ],
    sentences: [
      'Translates contracts, patents and court filings while keeping defined terms consistent.',
      'Localizes user interfaces, keeping placeholders, plural rules and string length limits intact.',
      'Offers human-reviewed translation for marketing copy where tone matters more than literal meaning.',
      'Detects the source language automatically and preserves formatting in DOCX, Markdown and HTML.',
      'Maintains a per-client glossary and translation memory so repeated phrases stay identical.',
      'Subtitles are translated, split and re-timed to reading speed for each target language.',
    ],
  },
  Data: {
    nouns: ['Ledger', 'Pipeline', 'Insight', 'Scraper', 'Analyst', 'Warehouse', 'Forecast', 'Tabular'],
    taglines: [
      'Clean, join and summarise messy spreadsheets',
      'Web scraping with structured JSON output',
      'Time-series forecasting for sales and inventory',
      'SQL reports and dashboards on demand',
      'Deduplication and entity resolution for CRM data',
    ],
    sentences: [
      'Cleans CSV and Excel exports, fixing dates, currencies and inconsistent category labels.',
      'Builds forecasts with seasonality and holiday effects and explains the confidence intervals.',
      'Writes and optimises SQL against PostgreSQL, BigQuery or Snowflake schemas you describe.',
      'Extracts tables from PDFs and scanned invoices into validated, typed records.',
      'Scrapes product catalogues politely, respecting robots rules and rate limits.',
      'Merges duplicate customer records using fuzzy matching on names, emails and addresses.',
    ],
  },
  Code: {
    nouns: ['Compiler', 'Refactor', 'Reviewer', 'Debugger', 'Linter', 'Scaffold', 'Migrator', 'Tester'],
    taglines: [
      'Code review for TypeScript, Rust and Go pull requests',
      'Unit and property tests written for your codebase',
      'Legacy migration from Python 2 and AngularJS',
      'Smart-contract audits for Solana programs',
      'Bug triage with minimal reproductions',
    ],
    sentences: [
      'Reviews pull requests for correctness, security issues and missing tests, with line comments.',
      'Writes property-based tests that find edge cases in parsers and serializers.',
      'Migrates callback-style code to async functions and removes dead dependencies.',
      'Audits Solana programs for missing signer checks, overflow and account confusion.',
      'Reproduces reported bugs in a minimal repository and proposes a patch with a regression test.',
      'Documents public APIs and keeps generated references in sync with the source.',
    ],
  },
  Design: {
    nouns: ['Palette', 'Sketch', 'Canvas', 'Pixel', 'Typeface', 'Wireframe', 'Brand', 'Vector'],
    taglines: [
      'Logos, palettes and brand guidelines',
      'Wireframes and clickable prototypes',
      'Accessible UI audits with concrete fixes',
      'Illustrations and icons in a consistent style',
      'Slide decks that explain, not decorate',
    ],
    sentences: [
      'Produces logo concepts with colour palettes and typography pairings for print and screen.',
      'Turns requirements into wireframes and then into a clickable prototype for user testing.',
      'Checks contrast, focus order and screen-reader labels against WCAG and suggests fixes.',
      'Draws icon sets on a shared grid so every glyph matches in weight and corner radius.',
      'Redesigns slide decks around one message per slide with charts that read at a glance.',
      'Exports assets in every size and format the app stores and social networks require.',
    ],
  },
};

const ADJECTIVES = ['Swift', 'Careful', 'Bright', 'Quiet', 'Nimble', 'Precise', 'Clever', 'Steady', 'Bold', 'Patient'];

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** 1-3 distinct categories; the first is the agent's main one and drives its text. */
function categoriesFor(main: Category): Category[] {
  const others = CATEGORIES.filter((c) => c !== main && Math.random() < 0.15);
  return [main, ...others];
}

function agentRow(index: number, createdAt: Date) {
  // About a quarter Translation (the measured query), the rest spread over the other categories.
  const main = pick(CATEGORIES);
  const words = VOCABULARY[main];
  const sentences = Array.from({ length: 2 + Math.floor(Math.random() * 3) }, () => pick(words.sentences));
  const agent = newAgentRow(
    {
      walletAddress: bs58.encode(randomBytes(32)),
      name: `${pick(ADJECTIVES)} ${pick(words.nouns)} ${index}`,
      tagline: pick(words.taglines),
      description: sentences.join(' '),
      categories: categoriesFor(main),
      basePrice: (10 + Math.floor(Math.random() * 9_990)) / 100,
      endpoint: `https://agents.example/${index}`,
    },
    createdAt,
  );
  return {
    ...agent,
    rating: Math.round(Math.random() * 50_000) / 10_000,
    reviewCount: Math.floor(Math.random() * 200),
    totalOrders: Math.floor(Math.random() * 500),
    completedOrders: Math.floor(Math.random() * 400),
  };
}

const MESSAGE_LINES = [
  'Could you translate the attached contract into German by Friday?',
  'Yes. Is the glossary from the last order still current?',
  'Mostly; “Auftragnehmer” should now be “Dienstleister”.',
  'Noted. I will send a first draft of sections 1-4 tomorrow.',
  'Great, please keep the clause numbering exactly as in the source.',
  'Draft attached. Two terms need your decision, marked in yellow.',
  'Use the shorter variant for both, thanks.',
];

// ---- seeding -----------------------------------------------------------------------------------

/** SEEDED_AGENTS agents in INSERT_BATCH-row inserts; returns one of them for the conversation. */
async function seedAgents(server: RunningServer): Promise<{ id: string; walletAddress: string }> {
  const yearAgo = Date.now() - 365 * 24 * 3600_000;
  let first: { id: string; walletAddress: string } | undefined;
  for (let start = 0; start < SEEDED_AGENTS; start += INSERT_BATCH) {
    const rows = Array.from({ length: Math.min(INSERT_BATCH, SEEDED_AGENTS - start) }, (_, i) =>
      agentRow(start + i, new Date(yearAgo + (start + i) * 3_000_000)),
    );
    first ??= rows[0];
    await server.db.em().insertMany(Agent, rows);
  }
  if (!first) throw new Error('no agents seeded');
  return first;
}

/** A conversation opened through the service, then SEEDED_MESSAGES - 1 more messages in one insert. */
async function seedConversation(server: RunningServer, agent: { id: string; walletAddress: string }, clientAddress: string) {
  const conversation = await server.services.conversations.create(clientAddress, {
    agentId: agent.id,
    clientWallet: clientAddress,
    initialMessage: MESSAGE_LINES[0] ?? 'Hello',
  });
  const opened = Date.parse(conversation.createdAt);
  const messages = Array.from({ length: SEEDED_MESSAGES - 1 }, (_, i) => ({
    id: randomUUID(),
    conversation: conversation.id,
    senderWallet: i % 2 === 0 ? agent.walletAddress : clientAddress,
    content: MESSAGE_LINES[(i + 1) % MESSAGE_LINES.length] ?? '',
    messageType: 'TEXT',
    createdAt: new Date(opened + (i + 1) * 1_000),
  }));
  await server.db.em().insertMany(Message, messages);
  return conversation.id;
}

// ---- checks ------------------------------------------------------------------------------------

/** One request of each scenario, so that a broken one fails loudly instead of benchmarking errors. */
async function checkHttp(baseUrl: string, scenario: MarketplaceScenario, expect: (body: unknown) => string | undefined) {
  const response = await fetch(`${baseUrl}${scenario.http.path}`, { headers: scenario.http.headers });
  const body: unknown = await response.json();
  const problem = response.status === 200 ? expect(body) : `status ${response.status}`;
  if (problem) throw new Error(`${scenario.scenario}: ${problem}: ${JSON.stringify(body).slice(0, 300)}`);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

// ---- setup -------------------------------------------------------------------------------------

const seconds = (since: number) => `${((performance.now() - since) / 1_000).toFixed(2)} s`;

/**
 * Seeds the marketplace data, checks both scenarios answer 200 with the expected content, and returns
 * them. Call right before measuring: the messages scenario's headers are signed now and stay valid for
 * the 5-minute window.
 */
export async function setUpMarketplace(server: RunningServer): Promise<MarketplaceSetup> {
  const notes: string[] = [];
  const seedingAt = performance.now();
  const agent = await seedAgents(server);
  notes.push(`seeded ${SEEDED_AGENTS.toLocaleString('en-US')} agents (bulk insert, ${INSERT_BATCH} rows per statement) in ${seconds(seedingAt)}`);

  const client = keypairSigner(generateKeypair().secretKey);
  const conversationAt = performance.now();
  const conversationId = await seedConversation(server, agent, client.address);
  notes.push(`seeded 1 conversation with ${SEEDED_MESSAGES} messages in ${seconds(conversationAt)}`);

  const messagesPath = `/api/conversations/${conversationId}/messages?limit=${MESSAGE_PAGE}`;
  // GET signatures may be replayed within their window, so one signature serves the whole run.
  const headers: Record<string, string> = await signedHeaders(client, 'GET', messagesPath, Date.now());
  notes.push(
    'GET /messages: wallet-signed once (timestamp = now) and the same headers reused by every request; ' +
      'the server still verifies the Ed25519 signature on each one (a GET signature is valid for 5 min)',
  );
  const searchPath = `/api/agents/search?query=${SEARCH_QUERY}`;

  const scenarios: MarketplaceScenario[] = [
    {
      scenario: `GET /api/conversations/:id/messages (${MESSAGE_PAGE} of ${SEEDED_MESSAGES})`,
      http: { path: messagesPath, headers },
      direct: [
        {
          path: 'service history',
          operation: () => server.services.conversations.history(client.address, conversationId, { limit: MESSAGE_PAGE, offset: 0 }),
        },
      ],
    },
    {
      scenario: `GET /api/agents/search?query=${SEARCH_QUERY}`,
      http: { path: searchPath, headers: {} },
      direct: [
        {
          path: 'service search',
          operation: () => server.services.agents.search({ query: SEARCH_QUERY, limit: SEARCH_PAGE, offset: 0 }),
        },
      ],
    },
  ];

  const [messages, search] = scenarios;
  if (!messages || !search) throw new Error('scenarios missing');
  await checkHttp(server.url, messages, (body) =>
    isRecord(body) && Array.isArray(body.messages) && body.messages.length === MESSAGE_PAGE && body.total === SEEDED_MESSAGES
      ? undefined
      : `expected ${MESSAGE_PAGE} messages of ${SEEDED_MESSAGES}`,
  );
  let matched = 0;
  await checkHttp(server.url, search, (body) => {
    if (!isRecord(body) || !Array.isArray(body.agents) || body.agents.length !== SEARCH_PAGE || typeof body.total !== 'number') {
      return `expected a full page of ${SEARCH_PAGE} agents`;
    }
    matched = body.total;
    return undefined;
  });
  notes.push(`search "${SEARCH_QUERY}" matches ${matched.toLocaleString('en-US')} of ${SEEDED_AGENTS.toLocaleString('en-US')} agents; each request returns the top ${SEARCH_PAGE} by rank and counts all matches`);
  return { notes, scenarios };
}
