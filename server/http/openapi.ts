import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import { appRouter } from '../../routers/index.ts';
import { procedureMeta } from './procedure-meta.ts';

/** The error body the resource API documents. */
const errorSchemas = {
  ResourceError: z
    .object({
      message: z.string().meta({ description: 'The action that failed', example: 'Error creating employee resource' }),
      error: z.string().meta({ description: 'What went wrong', example: 'Invalid request: email: Invalid email address' }),
    })
    .meta({ description: 'Error body of the resource management API' }),
};
const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request: the body or query fails validation (each bad field is named)',
  401: 'Missing or unknown API key',
  404: 'Not found',
  409: 'Conflicts with existing data',
  413: 'Request body larger than 100 kB',
  500: 'Internal error'
};

type Operation = { operationId?: string; responses?: Record<string, { description: string; content?: object }> };

/**
 * The OpenAPI 3.1 document of every REST procedure. trpc-to-openapi documents every success as 200
 * and its own error shape; this rewrites each operation's responses to what the server really sends.
 */
export function buildOpenApiDocument(baseUrl = 'http://localhost:3000'): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Typed Platform API',
    version: '0.1.0',
    description:
      'Resource management API (organization API keys: `Authorization: Bearer <key>`). ' +
      'Every procedure is also served as native tRPC at `/trpc`.',
    baseUrl,
    securitySchemes: { ApiKey: { type: 'http', scheme: 'bearer', description: 'Organization API key' } },
    defs: errorSchemas,
  });
  const metaByOperation = new Map([...procedureMeta(appRouter)].map(([path, meta]) => [path.replace(/\./g, '-'), meta]));

  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, Operation>)) {
      const meta = metaByOperation.get(operation.operationId ?? '');
      if (!meta || !operation.responses) continue;
      const { 200: ok } = operation.responses;
      const responses: NonNullable<Operation['responses']> = {};
      if (ok) responses[meta.successStatus ?? 200] = ok;
      for (const status of [...new Set(meta.errorStatuses ?? [500])].sort()) {
        responses[status] = {
          description: STATUS_TEXT[status] ?? 'Error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ResourceError' } } },
        };
      }
      operation.responses = responses;
    }
  }
  // The adapter's own error shapes ({ message, code, issues }) are never sent: keep them out of clients.
  const schemas = doc.components?.schemas ?? {};
  for (const name of Object.keys(schemas)) if (name.startsWith('error.')) delete schemas[name];
  return doc;
}
