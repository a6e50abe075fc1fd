/**
 * The server's search index as builds store it (server/docs-hosting/serving/search.ts): compressed, and the plain
 * JSON of builds stored before still read, each answering the same; updated from the last build's state, it answers
 * as one made whole.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, QUERY_BOUNDS, SiteSearch, storedSearchIndex, updatedSearchIndex, type SearchDocument } from '../../server/docs-hosting/serving/search.ts';

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

describe('an index updated from the last build (updatedSearchIndex)', () => {
  const QUERIES = ['webhook signatures', 'install', 'Page 17', 'retries', 'renamed', 'brand new topic', 'detail'];
  /** Every query's answers, ids and scores (to 6 digits: averages are summed in another order), as a SiteSearch of the stored index gives them. */
  const answers = (stored: Buffer) => {
    const search = SiteSearch.fromStored(stored);
    return QUERIES.map((query) => search.search(query, 500).map((hit) => [hit.route, hit.title, hit.description, hit.score.toFixed(6)]).sort());
  };
  const edited = (documents: SearchDocument[], n: number): SearchDocument[] => [
    ...documents.slice(0, 50),
    ...documents.slice(50, 50 + n).map((document) => ({ ...document, text: `${document.text} renamed` })),
    ...documents.slice(50 + n, 199),
    { id: '/guides/new', title: 'New page', text: 'A brand new topic.' },
  ];

  it('answers as an index of the same pages made whole: pages changed, removed and added', async () => {
    const first = await updatedSearchIndex(DOCUMENTS, undefined);
    const changed = edited(DOCUMENTS, 3);
    const next = await updatedSearchIndex(changed, first.state);
    expect([first.kept, next.kept]).toEqual([0, 196]); // 3 changed, 1 removed
    expect(answers(next.stored)).toEqual(answers(storedSearchIndex(changed)));
    expect(SiteSearch.fromStored(next.stored).search('renamed').map((hit) => hit.route).sort()).toEqual(['/guides/page-50', '/guides/page-51', '/guides/page-52']);
    expect(SiteSearch.fromStored(next.stored).search('Page 199', 500).map((hit) => hit.route)).not.toContain('/guides/page-199');
    expect(SiteSearch.fromStored(next.stored).search('Page 198', 500).map((hit) => hit.route)).toContain('/guides/page-198');
    // Unchanged again: the same index.
    expect(answers((await updatedSearchIndex(changed, next.state)).stored)).toEqual(answers(next.stored));
  });

  it('holds nothing of the pages it discarded', async () => {
    const first = await updatedSearchIndex(DOCUMENTS, undefined);
    const next = await updatedSearchIndex(edited(DOCUMENTS, 3), first.state);
    const json = gunzipSync(next.stored).toString();
    expect(json).not.toContain('/guides/page-199');
    expect(JSON.parse(json).dirtCount).toBe(0);
  });

  it('a state that is not one is not used: the index is made whole', async () => {
    const fresh = storedSearchIndex(DOCUMENTS);
    const { state } = await updatedSearchIndex(DOCUMENTS, undefined);
    const head = JSON.parse(state.slice(0, state.indexOf('\n'))) as { version: string };
    const otherVersion = state.replace(head.version, 'made-with-another-minisearch-or-options');
    const otherIndex = `${JSON.stringify({ version: head.version, hashes: [['/guides/missing', 'x']] })}${state.slice(state.indexOf('\n'))}`;
    for (const broken of ['', 'not json\n{}', state.slice(0, state.length / 2), otherVersion, otherIndex]) {
      const made = await updatedSearchIndex(DOCUMENTS, broken);
      expect([made.stored.equals(fresh), made.kept]).toEqual([true, 0]);
    }
  });
});

describe('what a query looks for (QUERY_BOUNDS, docs/docs-hosting.md "MCP endpoint")', () => {
  const LONG = 'supercalifragilisticexpialidocious'; // 34 characters
  const site = (extra: SearchDocument[] = []) =>
    new SiteSearch(
      buildSearchIndex([
        { id: '/webhooks', title: 'Webhooks', text: 'Configure `webhooks` and their retries.' },
        { id: '/node', title: 'Runtime', text: `Runs on node, says ${LONG}.` },
        { id: '/zed', title: 'Prefixes', text: Array.from({ length: QUERY_BOUNDS.prefixWords }, (_, i) => `zed${i}`).join(' ') },
        ...extra,
      ]),
    );
  const routes = (query: string | string[], search = site()) => search.search(query).map((hit) => hit.route).sort();

  it('splits words at punctuation and symbols: inline code is found by its word', () => {
    expect(routes('webhooks')).toEqual(['/webhooks']);
    expect(routes('<webhooks>')).toEqual(['/webhooks']);
  });

  it('a word of 3 characters or more also finds the words it begins, unless it begins more than 50', () => {
    expect([QUERY_BOUNDS.prefixFrom, QUERY_BOUNDS.prefixWords]).toEqual([3, 50]);
    expect(routes('web')).toEqual(['/webhooks']);
    expect(routes('we')).toEqual([]);
    expect(routes('zed')).toEqual(['/zed']); // begins 50 words
    expect(routes('zed', site([{ id: '/more', title: 'More', text: 'zedx' }]))).toEqual([]); // 51: matched whole
    expect(routes('zed1', site([{ id: '/more', title: 'More', text: 'zedx' }]))).toEqual(['/zed']);
  });

  it('a word of 5 to 32 characters also finds words one edit away', () => {
    expect([QUERY_BOUNDS.fuzzyFrom, QUERY_BOUNDS.fuzzyTo]).toEqual([5, 32]);
    expect(routes('retriez')).toEqual(['/webhooks']);
    expect(routes('retrzez')).toEqual([]); // two edits
    expect(routes('nodz')).toEqual([]); // 4 characters
    expect(routes(LONG)).toEqual(['/node']);
    expect(routes(`${LONG.slice(0, -1)}z`)).toEqual([]); // 34 characters
  });

  it('searches 16 distinct words at most: the longest, the first text’s before the next one’s', () => {
    expect(QUERY_BOUNDS.words).toBe(16);
    const longer = Array.from({ length: 15 }, (_, i) => `absent${i}`).join(' ');
    expect(routes(`${longer} node`)).toEqual(['/node']);
    expect(routes(`${longer} absent15 node`)).toEqual([]);
    expect(routes(`${'node '.repeat(40)}${longer}`)).toEqual(['/node']); // repeated words count once
    expect(routes(['node', 'webhooks'])).toEqual(['/node', '/webhooks']);
    expect(routes([`${longer} absent15`, 'webhooks'])).toEqual([]);
  });
});
