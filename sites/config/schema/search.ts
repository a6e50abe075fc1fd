import { z } from 'zod';

const emptyByDefault = (description: string) => z.string().meta({ default: '', description });

/** `search`: the built-in static index, or DocSearch when `docsearch` is set. */
export const searchSchema = z
  .strictObject({
    docsearch: z
      .strictObject({
        appId: emptyByDefault('DocSearch application id'),
        apiKey: emptyByDefault('DocSearch search-only API key'),
        indexName: emptyByDefault('DocSearch index name'),
      })
      .optional(),
  })
  .default({});
