/**
 * The marketplace part of the API bench (api.ts measures; this module seeds and describes): 10,000 agents and
 * a 200-message conversation (seed.ts), and the two scenarios measured over HTTP and directly through the service:
 *   GET /api/conversations/:id/messages?limit=100   wallet-signed (signed once, headers reused: a GET
 *                                                   signature stays valid for its 5-minute window)
 *   GET /api/agents/search?query=translation        public
 */
import { generateKeypair, keypairSigner, signedHeaders } from '../../../client-sdk/wallet.ts';
import type { RunningServer } from '../../../server/app.ts';
import type { ApiScenario, ApiSetup } from '../api.ts';
import { integer, secondsSince } from '../common/format.ts';
import { INSERT_BATCH, SEEDED_AGENTS, SEEDED_MESSAGES, seedAgents, seedConversation } from './seed.ts';

const MESSAGE_PAGE = 100;
const SEARCH_QUERY = 'translation';
const SEARCH_PAGE = 20;

/** One request of each scenario, so that a broken one fails loudly instead of benchmarking errors. */
async function checkHttp(baseUrl: string, scenario: ApiScenario, expect: (body: unknown) => string | undefined) {
  const response = await fetch(`${baseUrl}${scenario.http.path}`, { headers: scenario.http.headers });
  const body: unknown = await response.json();
  const problem = response.status === 200 ? expect(body) : `status ${response.status}`;
  if (problem) throw new Error(`${scenario.scenario}: ${problem}: ${JSON.stringify(body).slice(0, 300)}`);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Seeds the marketplace data, checks both scenarios answer 200 with the expected content, and returns
 * them. Call right before measuring: the messages scenario's headers are signed now and stay valid for
 * the 5-minute window.
 */
export async function setUpMarketplace(server: RunningServer): Promise<ApiSetup> {
  const notes: string[] = [];
  const seedingAt = performance.now();
  const agent = await seedAgents(server);
  notes.push(`seeded ${integer(SEEDED_AGENTS)} agents (bulk insert, ${INSERT_BATCH} rows per statement) in ${secondsSince(seedingAt)}`);

  const client = keypairSigner(generateKeypair().secretKey);
  const conversationAt = performance.now();
  const conversationId = await seedConversation(server, agent, client.address);
  notes.push(`seeded 1 conversation with ${SEEDED_MESSAGES} messages in ${secondsSince(conversationAt)}`);

  const messagesPath = `/api/conversations/${conversationId}/messages?limit=${MESSAGE_PAGE}`;
  // GET signatures may be replayed within their window, so one signature serves the whole run.
  const headers: Record<string, string> = await signedHeaders(client, 'GET', messagesPath, Date.now());
  notes.push(
    'GET /messages: wallet-signed once (timestamp = now) and the same headers reused by every request; ' +
      'the server still verifies the Ed25519 signature on each one (a GET signature is valid for 5 min)',
  );
  const searchPath = `/api/agents/search?query=${SEARCH_QUERY}`;

  const scenarios: ApiScenario[] = [
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
  notes.push(`search "${SEARCH_QUERY}" matches ${integer(matched)} of ${integer(SEEDED_AGENTS)} agents; each request returns the top ${SEARCH_PAGE} by rank and counts all matches`);
  return { notes, scenarios };
}
