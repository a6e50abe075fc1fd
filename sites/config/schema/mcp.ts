import { z } from 'zod';

/** `mcp`: the per-repository MCP endpoint (404 when disabled). */
export const mcpSchema = z.strictObject({ enabled: z.boolean().default(true) }).default({ enabled: true });
