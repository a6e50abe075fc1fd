/**
 * One chat completion from the model provider a docs site's owner registered for its agent, through the
 * provider's official HTTP API with plain fetch (no vendor SDKs). Every failure is a ProviderError whose kind
 * says what to do about it: 'auth' (the owner must fix the key), 'rate-limited' (retry after
 * retryAfterSeconds), 'unavailable' (retry later), 'bad-response' (the request or the answer was wrong: a bug,
 * or a model the key cannot use). Error messages never contain the API key.
 */
import { z } from 'zod';

import { MODEL_PROVIDERS } from '../../../sites/index.ts';

/** The providers `agent.models` of docs.json is keyed by. */
export { MODEL_PROVIDERS };
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/**
 * Small, cheap models current in November 2026. The older favourites are gone or going: claude-3-5-haiku was
 * retired in February 2026, gemini-2.0-flash in June 2026, and gpt-4o-mini shuts down on 2027-01-14.
 */
export const DEFAULT_MODELS: Record<ModelProvider, string> = {
  openai: 'gpt-6-luna',
  anthropic: 'claude-haiku-4-5',
  google: 'gemini-3.5-flash-lite',
  mistral: 'mistral-small-latest',
};

export const DEFAULT_BASE_URLS: Record<ModelProvider, string> = {
  openai: 'https://api.openai.com',
  anthropic: 'https://api.anthropic.com',
  google: 'https://generativelanguage.googleapis.com',
  mistral: 'https://api.mistral.ai',
};

const NAMES: Record<ModelProvider, string> = { openai: 'OpenAI', anthropic: 'Anthropic', google: 'Google Gemini', mistral: 'Mistral' };

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  provider: ModelProvider;
  apiKey: string;
  /** Default: DEFAULT_MODELS[provider]. */
  model?: string;
  /** Overrides DEFAULT_BASE_URLS[provider] (tests, proxies); may carry a path prefix. */
  baseUrl?: string;
  system: string;
  /** The conversation so far, oldest first; the last one is the user's question. */
  messages: ChatTurn[];
  /** Upper bound of the answer's tokens (default 1024). */
  maxTokens?: number;
  /** For the whole exchange, answer included (default 30 s). */
  timeoutMs?: number;
  /** The caller's cancellation: when it fires, complete() rejects with its reason, not a ProviderError. */
  signal?: AbortSignal;
}

export interface Completion {
  text: string;
  /** The model that answered, as the provider reports it (a dated snapshot for an alias), else the one asked for. */
  model: string;
}

export type ProviderErrorKind = 'auth' | 'rate-limited' | 'unavailable' | 'bad-response';

export class ProviderError extends Error {
  readonly provider: ModelProvider;
  readonly kind: ProviderErrorKind;
  /** The provider's HTTP status, when it answered. */
  readonly status?: number;
  readonly retryAfterSeconds?: number;

  constructor(provider: ModelProvider, kind: ProviderErrorKind, message: string, details: { status?: number; retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ProviderError';
    this.provider = provider;
    this.kind = kind;
    if (details.status !== undefined) this.status = details.status;
    if (details.retryAfterSeconds !== undefined) this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

interface Answer {
  text: string;
  model?: string;
  /** Why the provider stopped, reported when the text is empty. */
  finish?: string;
}

interface Adapter {
  path(model: string): string;
  headers(apiKey: string): Record<string, string>;
  body(model: string, request: CompletionRequest, maxTokens: number): unknown;
  /** The answer in a 2xx body, or undefined when the body does not have the provider's shape. */
  answer(json: unknown): Answer | undefined;
}

const textBlocks = z.array(z.object({ type: z.string(), text: z.string().optional() }));
const joinText = (blocks: z.infer<typeof textBlocks>) => blocks.map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('');

const chatCompletion = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        // Mistral's reasoning models answer chunks ({ type: 'thinking' } then { type: 'text' }) instead of a string.
        message: z.object({ content: z.union([z.string(), textBlocks]).nullable() }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
});

/** OpenAI and Mistral: the same Chat Completions shape, differing in the output-token limit's name. */
function chatCompletions(maxTokensField: 'max_completion_tokens' | 'max_tokens'): Adapter {
  return {
    path: () => '/v1/chat/completions',
    headers: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
    body: (model, { system, messages }, maxTokens) => ({
      model,
      // 'system' rather than OpenAI's newer 'developer': both APIs accept it (OpenAI maps it for reasoning models).
      messages: [...(system ? [{ role: 'system', content: system }] : []), ...messages.map(({ role, content }) => ({ role, content }))],
      [maxTokensField]: maxTokens,
    }),
    answer: (json) => {
      const parsed = chatCompletion.safeParse(json);
      if (!parsed.success) return undefined;
      const [choice] = parsed.data.choices;
      const content = choice!.message.content ?? '';
      return { text: typeof content === 'string' ? content : joinText(content), model: parsed.data.model, finish: choice!.finish_reason ?? undefined };
    },
  };
}

const anthropicMessage = z.object({ model: z.string().optional(), content: textBlocks, stop_reason: z.string().nullish() });

const geminiResponse = z.object({
  modelVersion: z.string().optional(),
  candidates: z
    .array(
      z.object({
        content: z.object({ parts: z.array(z.object({ text: z.string().optional(), thought: z.boolean().optional() })).optional() }).optional(),
        finishReason: z.string().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.object({ blockReason: z.string().optional() }).optional(),
});

const ADAPTERS: Record<ModelProvider, Adapter> = {
  // max_completion_tokens: OpenAI deprecated max_tokens for Chat Completions, and its reasoning models (o-series,
  // gpt-5 and later, the default included) refuse it; max_completion_tokens works with every current model.
  openai: chatCompletions('max_completion_tokens'),
  // Mistral validates strictly and refuses max_completion_tokens (422 extra_forbidden): it keeps max_tokens.
  mistral: chatCompletions('max_tokens'),
  anthropic: {
    path: () => '/v1/messages',
    headers: (apiKey) => ({ 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' }),
    body: (model, { system, messages }, maxTokens) => ({
      model,
      max_tokens: maxTokens,
      ...(system ? { system } : {}),
      messages: messages.map(({ role, content }) => ({ role, content })),
    }),
    answer: (json) => {
      const parsed = anthropicMessage.safeParse(json);
      if (!parsed.success) return undefined;
      return { text: joinText(parsed.data.content), model: parsed.data.model, finish: parsed.data.stop_reason ?? undefined };
    },
  },
  google: {
    // The model goes in the path; accept the API's own `models/…` resource name too.
    path: (model) => `/v1beta/models/${encodeURIComponent(model.replace(/^models\//, ''))}:generateContent`,
    headers: (apiKey) => ({ 'x-goog-api-key': apiKey }),
    body: (_model, { system, messages }, maxTokens) => ({
      ...(system ? { systemInstruction: { parts: [{ text: system }] } } : {}),
      contents: messages.map(({ role, content }) => ({ role: role === 'assistant' ? 'model' : 'user', parts: [{ text: content }] })),
      generationConfig: { maxOutputTokens: maxTokens },
    }),
    answer: (json) => {
      const parsed = geminiResponse.safeParse(json);
      if (!parsed.success) return undefined;
      const { candidates, promptFeedback, modelVersion } = parsed.data;
      const candidate = candidates?.[0];
      if (!candidate) return promptFeedback?.blockReason ? { text: '', model: modelVersion, finish: `blocked: ${promptFeedback.blockReason}` } : undefined;
      // Thought summaries (thought: true) are not part of the answer.
      const text = (candidate.content?.parts ?? []).map((part) => (part.thought ? '' : (part.text ?? ''))).join('');
      return { text, model: modelVersion, finish: candidate.finishReason };
    },
  },
};

const errorBody = z.object({
  error: z
    .object({
      message: z.string().optional(),
      details: z.array(z.looseObject({ '@type': z.string().optional(), reason: z.string().optional(), retryDelay: z.string().optional() })).optional(),
    })
    .optional(),
  message: z.unknown().optional(),
  detail: z.unknown().optional(),
});

/** The human-readable part of a provider's error body (each names it differently), shortened. */
function errorMessage(body: z.infer<typeof errorBody> | undefined): string | undefined {
  if (!body) return undefined;
  const found =
    body.error?.message ??
    (typeof body.message === 'string' ? body.message : undefined) ??
    (typeof body.detail === 'string' ? body.detail : undefined) ??
    // Mistral's validation errors: { message: { detail: [{ loc, msg }] } }
    z
      .object({ detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])).optional(), msg: z.string() })).min(1) })
      .safeParse(body.message)
      .data?.detail.map(({ loc, msg }) => (loc ? `${loc.join('.')}: ${msg}` : msg))
      .join('; ');
  return found && found.length > 300 ? `${found.slice(0, 300)}…` : found;
}

/** Retry-After (delta-seconds or an HTTP date), else Gemini's google.rpc.RetryInfo ("30s") in the body. */
function retryAfter(headers: Headers, body: z.infer<typeof errorBody> | undefined): number | undefined {
  const header = headers.get('retry-after')?.trim();
  if (header) {
    if (/^\d+(\.\d+)?$/.test(header)) return Math.ceil(Number(header));
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - Date.now()) / 1000));
  }
  const delay = body?.error?.details?.find((detail) => detail['@type']?.endsWith('google.rpc.RetryInfo'))?.retryDelay;
  const seconds = delay ? /^(\d+(?:\.\d+)?)s$/.exec(delay)?.[1] : undefined;
  return seconds === undefined ? undefined : Math.ceil(Number(seconds));
}

/** Gemini answers a wrong key with 400 INVALID_ARGUMENT and reason API_KEY_INVALID, not 401. */
const isKeyRefusal = (body: z.infer<typeof errorBody> | undefined) => body?.error?.details?.some((detail) => detail.reason?.startsWith('API_KEY_')) ?? false;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const describeError = (error: unknown) => {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
};

export async function complete(request: CompletionRequest, fetchImpl: typeof fetch = fetch): Promise<Completion> {
  const { provider, apiKey } = request;
  const adapter = ADAPTERS[provider];
  if (!adapter) throw new TypeError(`Unknown model provider: ${String(provider)}`);
  if (request.messages.at(-1)?.role !== 'user') throw new TypeError("messages must end with the user's question");
  const name = NAMES[provider];
  const model = request.model ?? DEFAULT_MODELS[provider];
  const maxTokens = request.maxTokens ?? 1024;
  const timeoutMs = request.timeoutMs ?? 30_000;
  const base = (request.baseUrl ?? DEFAULT_BASE_URLS[provider]).replace(/\/+$/, '');
  // Every message goes through here: whatever a provider or a network error echoes, the key is never repeated.
  const fail = (kind: ProviderErrorKind, message: string, details?: ConstructorParameters<typeof ProviderError>[3]) =>
    new ProviderError(provider, kind, apiKey ? message.replaceAll(apiKey, '[redacted]') : message, details);

  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let response: Response;
  let raw: string;
  try {
    response = await fetchImpl(`${base}${adapter.path(model)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...adapter.headers(apiKey) },
      body: JSON.stringify(adapter.body(model, request, maxTokens)),
      signal,
      // Never follow a redirect: fetch would resend x-api-key / x-goog-api-key to wherever it points.
      redirect: 'manual',
    });
    raw = await response.text();
  } catch (error) {
    if (request.signal?.aborted) throw request.signal.reason;
    if (timeout.aborted) throw fail('unavailable', `${name} did not answer within ${timeoutMs} ms`);
    throw fail('unavailable', `Could not reach ${name}: ${describeError(error)}`, { cause: error });
  }

  const { status } = response;
  const json = parseJson(raw);
  if (status >= 200 && status < 300) {
    const answer = json === undefined ? undefined : adapter.answer(json);
    if (!answer) throw fail('bad-response', `${name} answered HTTP ${status} without the expected JSON`, { status });
    // An empty answer is useless to a reader; it usually means the token limit was spent (reasoning) or a block.
    if (!answer.text) throw fail('bad-response', `${name} answered without any text${answer.finish ? ` (${answer.finish})` : ''}`, { status });
    return { text: answer.text, model: answer.model || model };
  }

  const body = errorBody.safeParse(json).data;
  const detail = errorMessage(body);
  const suffix = detail ? `: ${detail}` : '';
  // No provider text for key refusals: OpenAI's echoes part of the key.
  if (status === 401 || status === 403 || isKeyRefusal(body)) throw fail('auth', `${name} refused the API key (HTTP ${status})`, { status });
  if (status === 429) {
    const seconds = retryAfter(response.headers, body);
    throw fail('rate-limited', `${name} is rate limiting requests (HTTP 429${seconds === undefined ? '' : `, retry after ${seconds} s`})${suffix}`, {
      status,
      retryAfterSeconds: seconds,
    });
  }
  // 408 is the provider timing out on its side: as transient as a 5xx.
  if (status >= 500 || status === 408) throw fail('unavailable', `${name} failed (HTTP ${status})${suffix}`, { status });
  throw fail('bad-response', `${name} refused the request (HTTP ${status})${suffix}`, { status });
}
