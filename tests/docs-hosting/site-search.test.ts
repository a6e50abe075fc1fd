/**
 * The server's search index as builds store it (server/docs-hosting/serving/search.ts): compressed, and the plain
 * JSON of builds stored before still read, each answering the same.
 */
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, SiteSearch, storedSearchIndex } from '../../server/docs-hosting/serving/search.ts';

const DOCUMENTS = Array.from({ length: 200 }, (_, i) => ({
  id: `/guides/page-${i}`,
  title: `Page ${i}`,
  description: i % 2 ? 'Webhooks and retries' : 'Installing the CLI',
  text: `Page ${i} explains ${i % 3 ? 'webhook signatures' : 'the install command'} in detail. `.repeat(20),
}));

describe('the stored search index', () => {
  it('is compressed (a fraction of its JSON) and answers as the index it was made from', () => {
    const stored = storedSearchIndex(DOCUMENTS);
    const json = buildSearchIndex(DOCUMENTS);
    expect(stored.length).toBeLessThan(Buffer.byteLength(json) / 3);
    const fromStored = SiteSearch.fromStored(stored);
    const original = new SiteSearch(json);
    for (const query of ['webhook signatures', 'install', 'Page 17']) expect(fromStored.search(query)).toEqual(original.search(query));
    expect(fromStored.search('webhook signatures').length).toBeGreaterThan(0);
  });

  it('of a build stored before (plain JSON) is read as it is', () => {
    const plain = Buffer.from(buildSearchIndex(DOCUMENTS));
    expect(SiteSearch.fromStored(plain).search('install')).toEqual(new SiteSearch(plain.toString('utf8')).search('install'));
    expect(SiteSearch.fromStored(plain).search('install').length).toBeGreaterThan(0);
  });
});
