/**
 * The chat panel (`agent`, beta) in built documentation sites: rendered only when `agent.key` is set, with the
 * configured placeholder and suggested questions (escaped), asking `POST <base>/_chat`; the key itself never
 * reaches any built file. Three builds of the small fixture: a key under a base path, a key with nothing else
 * (defaults), and placeholder/questions without a key.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, type BuiltSite } from '../helpers/docs.ts';

const BASE = '/acme/widgets';
const KEY = 'k-secret-chat-7f3a9c';
const HOSTILE_PLACEHOLDER = 'Ask me <script>alert("placeholder")</script> & "quotes"';
const HOSTILE_QUESTION = '<script>alert("question")</script><b>bold?</b> & more';

let chat: BuiltSite; // key, placeholder, questions (one hostile), under a base path
let defaults: BuiltSite; // key only
let keyless: BuiltSite; // placeholder and questions but no key

beforeAll(async () => {
  chat = await buildFixture('docs-empty', {
    base: BASE,
    config: { agent: { key: KEY, placeholder: HOSTILE_PLACEHOLDER, questions: ['How do I start?', HOSTILE_QUESTION], limits: { ip: 5, repo: 50 } } },
  });
  defaults = await buildFixture('docs-empty', { config: { agent: { key: KEY } } });
  keyless = await buildFixture('docs-empty', { config: { agent: { placeholder: 'Ask me', questions: ['How do I start?'] } } });
}, 120_000);

/** Every file of a built site (relative paths), Pagefind's compressed index left out. */
function files(site: BuiltSite): string[] {
  return readdirSync(site.out, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(site.out, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !path.startsWith('pagefind/'));
}

describe('chat panel markup', () => {
  it('with `agent.key`: the "Ask AI" button, the panel with its heading, suggested questions, input and log', () => {
    for (const route of ['/', '/guide']) {
      const page = chat.page(route);
      const button = page.select('button#docs-chat-open')!;
      expect(button.text.trim()).toBe('Ask AI');
      expect([button.attr('aria-controls'), button.attr('aria-expanded'), button.has('hidden'), button.has('data-chat-open')]).toEqual(['docs-chat', 'false', true, true]);

      const panel = page.select('dialog#docs-chat.chat-panel')!;
      expect(panel.has('open')).toBe(false);
      expect(page.select(`#${panel.attr('aria-labelledby')}`)?.text).toBe('Ask AI');
      expect(panel.select('button[data-chat-close]')?.attr('aria-label')).toBe('Close');
      expect(panel.selectAll('[data-chat-questions] button[data-chat-question]').map((b) => b.text)).toEqual(['How do I start?', HOSTILE_QUESTION]);

      const input = panel.select('form#docs-chat-form textarea#docs-chat-input')!;
      expect([input.attr('placeholder'), input.attr('maxlength')]).toEqual([HOSTILE_PLACEHOLDER, '2000']);
      expect(panel.select('label[for=docs-chat-input]')?.text).toBe('Your question');
      expect(panel.select('form#docs-chat-form button[type=submit]')?.text).toBe('Ask');

      const log = panel.select('#docs-chat-log')!;
      expect([log.attr('role'), log.attr('aria-live'), log.text]).toEqual(['log', 'polite', '']);
    }
  });

  it('the default placeholder; no suggested questions when none are configured', () => {
    const panel = defaults.page('/').select('#docs-chat')!;
    expect(panel.select('#docs-chat-input')?.attr('placeholder')).toBe('Ask a question about these docs…');
    expect(panel.select('[data-chat-questions]')).toBeUndefined();
  });

  it('without `agent.key` there is no panel, no button and no chat script, whatever else `agent` says', () => {
    const page = keyless.page('/');
    expect(page.select('#docs-chat, #docs-chat-open, [data-chat], .chat-panel')).toBeUndefined();
    expect(page.html).not.toContain('_chat');
    expect(page.html).not.toContain('How do I start?');
  });

  it('the panel is outside the indexed article (search does not index it)', () => {
    expect(chat.page('/').select('article [data-chat], article #docs-chat-open')).toBeUndefined();
  });
});

describe('chat panel requests', () => {
  it('the script posts to `<base>/_chat` (the base path written at build time)', () => {
    const page = chat.page('/guide');
    expect(page.select('#docs-chat')?.attr('data-endpoint')).toBe(`${BASE}/_chat`);
    expect(page.select('#docs-chat')?.attr('data-base')).toBe(BASE);
    expect(defaults.page('/').select('#docs-chat')?.attr('data-endpoint')).toBe('/_chat');
    const script = page.selectAll('script').find((s) => s.text.includes("getElementById('docs-chat')"))!.text;
    expect(script).toContain("method:'POST'");
    expect(script).toContain('p.dataset.endpoint');
    expect(script).toContain('turns.slice(-10)');
    // Model text is only ever set as text.
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it('no third-party request: the only URL in the script is the site-relative endpoint', () => {
    const script = chat.page('/').selectAll('script').find((s) => s.text.includes("getElementById('docs-chat')"))!.text;
    expect(script).not.toMatch(/https?:\/\//);
    expect(chat.page('/').selectAll('script[src]')).toHaveLength(0);
  });
});

describe('chat panel safety', () => {
  it('the key is in no built file: HTML, Markdown, llms*.txt, JSON, XML, CSS/JS (Pagefind compressed index left out)', () => {
    for (const site of [chat, defaults]) {
      const all = files(site);
      expect(all).toEqual(expect.arrayContaining(['index.html', 'guide/index.html', '404.html', 'index.md', 'llms.txt', 'llms-full.txt', 'sitemap.xml', '_redirects.json']));
      expect(all.some((path) => path.startsWith('_astro/') && path.endsWith('.css'))).toBe(true);
      const leaking = all.filter((path) => readFileSync(join(site.out, path)).includes(KEY));
      expect(leaking).toEqual([]);
    }
  });

  it('`<script>` in the placeholder or a question is text, never markup', () => {
    const page = chat.page('/');
    // Question text: escaped as text. Placeholder: an attribute value, whose quotes are escaped so it cannot end
    // early (`<` inside a quoted attribute is plain text to an HTML parser, and Astro leaves it as is).
    expect(page.html).toContain('&lt;script&gt;alert(&quot;question&quot;)&lt;/script&gt;&lt;b&gt;bold?&lt;/b&gt; &amp; more</button>');
    expect(page.html).toContain('placeholder="Ask me <script>alert(&quot;placeholder&quot;)</script> &amp; &quot;quotes&quot;"');
    expect(page.selectAll('script').some((s) => s.text.includes('alert('))).toBe(false);
    expect(page.select('#docs-chat b')).toBeUndefined();
    expect(page.select('#docs-chat-input')?.attr('placeholder')).toBe(HOSTILE_PLACEHOLDER);
  });
});
