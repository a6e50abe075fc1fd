import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { SiteContent } from './content.ts';
import type { ServedSite } from './serve.ts';
import type { DocsSites } from './sites.ts';

/**
 * `{site}/mcp`: a Streamable-HTTP MCP server over the site's own content, so assistants can search the docs, list
 * their pages and read one as Markdown. Stateless (no session): each request gets a fresh server bound to the build
 * the URL serves, so any server process can answer any request. 404 when the site says `mcp.enabled: false`.
 */

const page = z.object({ title: z.string(), url: z.string(), description: z.string().optional() });

function mcpServer(site: ServedSite, content: SiteContent): McpServer {
  const name = `${site.request.repository.owner}/${site.request.repository.name}`;
  const server = new McpServer(
    { name: `${name} documentation`, version: site.build.commit.slice(0, 12) },
    { instructions: `Documentation of ${site.build.manifest.name} (${name}). Search it with search_docs, then read whole pages with read_page.` },
  );
  server.registerTool(
    'search_docs',
    {
      title: 'Search the documentation',
      description: `Full-text search over the pages of ${site.build.manifest.name}. Answers the best pages with a snippet each.`,
      inputSchema: { query: z.string().min(1).max(500).describe('Words to look for'), limit: z.number().int().min(1).max(20).default(5).describe('How many pages') },
      outputSchema: { results: z.array(page.extend({ snippet: z.string(), score: z.number() })) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, limit }) => {
      const results = await content.search([query], limit);
      const text = results.length
        ? results.map((r, i) => `${i + 1}. ${r.title} — ${r.url}\n   ${r.snippet}`).join('\n')
        : `No page of ${site.build.manifest.name} matches "${query}".`;
      return { content: [{ type: 'text', text }], structuredContent: { results: results.map(({ path: _, ...r }) => r) } };
    },
  );
  server.registerTool(
    'list_pages',
    {
      title: 'List the pages',
      description: 'Every page of the documentation in reading order, with its URL and description.',
      outputSchema: { pages: z.array(page) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => {
      const pages = content.pages().map(({ path: _, ...p }) => p);
      const text = pages.map((p) => `- ${p.title}: ${p.url}${p.description ? ` — ${p.description}` : ''}`).join('\n');
      return { content: [{ type: 'text', text }], structuredContent: { pages } };
    },
  );
  server.registerTool(
    'read_page',
    {
      title: 'Read a page',
      description: 'A page of the documentation as Markdown, by its path (`/guides/start`) or URL.',
      inputSchema: { path: z.string().min(1).max(2000).describe('The page path or URL, as list_pages or search_docs give it') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ path }) => {
      const found = await content.read(path);
      if (!found) return { isError: true, content: [{ type: 'text', text: `No page at ${path}. Use list_pages to see the pages.` }] };
      return { content: [{ type: 'text', text: found.markdown }] };
    },
  );
  return server;
}

export function createMcpRoute(sites: DocsSites) {
  return async function mcp(req: IncomingMessage, res: ServerResponse, site: ServedSite): Promise<void> {
    if (!site.build.manifest.mcp.enabled) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'NOT_FOUND', message: 'This site has no MCP endpoint (mcp.enabled is false)' }));
      return;
    }
    const server = mcpServer(site, new SiteContent(sites, site));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
}
