import { z } from 'zod';
import { text } from './common.ts';

/** The model providers `docs agent create` can register; `agent.models` is keyed by them. */
export const MODEL_PROVIDERS = ['openai', 'anthropic', 'google', 'mistral'] as const;

const hourlyLimit = (fallback: number) => z.int().positive().max(Number.MAX_SAFE_INTEGER).default(fallback);

/** `agent` (beta): the chat panel. */
export const agentSchema = z
  .strictObject({
    key: text().optional().describe('Credential returned by `docs agent create`; enables the chat panel.'),
    models: z
      .strictObject(Object.fromEntries(MODEL_PROVIDERS.map((p) => [p, text().optional()])) as Record<(typeof MODEL_PROVIDERS)[number], z.ZodOptional<z.ZodString>>)
      .optional()
      .describe('Model id per provider; only the registered provider entry is read.'),
    placeholder: text().optional().describe('Placeholder text in the empty question input'),
    questions: z.array(text()).optional().describe('Suggested starter questions'),
    limits: z
      .strictObject({
        ip: hourlyLimit(200).describe('Max chat requests per IP per hour'),
        repo: hourlyLimit(10_000).describe('Max chat requests per repository per hour'),
      })
      .default({ ip: 200, repo: 10_000 }),
  })
  .default({ limits: { ip: 200, repo: 10_000 } });
