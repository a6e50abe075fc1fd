/**
 * The built-in MDX components as docs.page and Mintlify repositories use them (tests/fixtures/components, one page
 * per group), built for real and read back as HTML: parameter fields, both Tabs forms, code groups, icons from the
 * Iconify sets, media facades, callouts, layout components. The fixture is valid usage and builds without a warning;
 * variants add what must warn (unknown icons, live services) and hostile props.
 */
import { describe, expect, it } from 'vitest';
import { buildFixture, type BuiltSite, type El } from '../helpers/docs.ts';

const site = (): Promise<BuiltSite> => buildFixture('components');
const texts = (els: El[]) => els.map((el) => el.text.trim());
const policyOf = (built: BuiltSite, route: string) => built.page(route).select('meta[http-equiv="Content-Security-Policy"]')?.attr('content') ?? '';
const prose = async (route: string) => (await site()).page(route).select('.prose')!;

describe('the components fixture', () => {
  it('builds without a warning', async () => {
    const built = await site();
    expect(built.result.problems.map((p) => `${p.file}:${p.line ?? ''} ${p.message}`)).toEqual([]);
  }, 120_000);
});

describe('parameter fields', () => {
  it('show each field’s name, type, location, required/optional/deprecated and default', async () => {
    const page = await prose('/fields');
    expect(texts(page.selectAll('.field-name'))).toEqual(['color', 'size', 'userId', 'limit', 'email', 'Authorization', 'user', 'full_name', 'is_over_21']);
    expect(texts(page.selectAll('.field-type'))).toEqual(['string', 'number', 'string', 'integer', 'string', 'string', 'User object', 'string', 'boolean']);
    expect(texts(page.selectAll('[data-badge="location"]'))).toEqual(['path', 'query', 'body', 'header']);
    expect(page.selectAll('[data-badge="required"]')).toHaveLength(4);
    expect(texts(page.selectAll('[data-badge="optional"]'))).toEqual(['optional']);
    expect(texts(page.selectAll('[data-badge="deprecated"]'))).toEqual(['deprecated']);
    expect(texts(page.selectAll('.field-default code'))).toEqual(['16', '20', 'false']);
    // pre/post labels around the name; a hidden field is left out.
    expect(texts(page.selectAll('.field[data-kind="response"] > .field-head > .badge:not([data-badge])'))).toEqual(['beta', 'read-only']);
    expect(page.text).not.toContain('secret');
  });
  it('nest children in an Expandable (a native details element)', async () => {
    const page = await prose('/fields');
    const expandable = page.select('.field .field-body details.expandable')!;
    expect(expandable.select('summary')!.text).toContain('Show properties');
    expect(texts(expandable.selectAll('.field-name'))).toEqual(['full_name', 'is_over_21']);
  });
});

describe('tabs', () => {
  it('Mintlify <Tabs><Tab title> draws a tab bar, with tab icons', async () => {
    const sets = (await prose('/tabs')).selectAll('.tabs[data-variant="tabs"]');
    expect(texts(sets[0]!.selectAll('[role="tab"]'))).toEqual(['First tab', 'Second tab']);
    expect(sets[0]!.select('[role="tab"]:nth-child(2) svg')?.attr('data-icon')).toBe('fa6-solid:leaf');
    expect(sets[0]!.selectAll('[role="tabpanel"]')).toHaveLength(2);
    expect(sets[0]!.attr('data-sync')).toBe('title:');
  });
  it('docs.page <Tabs groupId defaultValue><TabItem value label> draws a tab bar labelled by label, synchronised by value', async () => {
    const sets = (await prose('/tabs')).selectAll('.tabs[data-variant="tabs"]');
    for (const set of [sets[1]!, sets[2]!]) {
      expect(texts(set.selectAll('[role="tab"]'))).toEqual(['JavaScript', 'Dart']);
      expect(set.selectAll('[role="tab"]').map((tab) => tab.attr('data-value'))).toEqual(['js', 'dart']);
      expect(set.attr('data-sync')).toBe('group:language');
    }
    // defaultValue="dart" selects the second tab of the first set; the other starts on its first.
    expect(sets[1]!.select('[aria-selected="true"]')!.text).toBe('Dart');
    expect(sets[2]!.select('[aria-selected="true"]')!.text).toBe('JavaScript');
  });
  it('code groups label tabs by fence title, else language; docs.page title and defaultLanguage; API examples', async () => {
    const groups = (await prose('/tabs')).selectAll('.tabs[data-variant="code"]');
    expect(texts(groups[0]!.selectAll('[role="tab"]'))).toEqual(['helloWorld.js', 'hello_world.py']);
    expect(texts(groups[1]!.selectAll('[role="tab"]'))).toEqual(['JavaScript', 'Python']);
    expect(groups[1]!.select('.tabs-caption')!.text).toBe('Logging');
    expect(groups[1]!.select('[aria-selected="true"]')!.text).toBe('Python');
    expect(groups[2]!.select('.tabs-caption')!.text).toBe('Request');
    expect(texts(groups[2]!.selectAll('[role="tab"]'))).toEqual(['Request']);
    expect(groups[3]!.select('.tabs-caption')!.text).toBe('Response');
  });
});

describe('icons', () => {
  it('draw Lucide and Font Awesome names (class strings, styles, iconType, v5 names) as inline SVG', async () => {
    const page = await prose('/icons');
    const drawn = page.selectAll('p svg').map((svg) => svg.attr('data-icon'));
    expect(drawn).toEqual(['lucide:list-ordered', 'lucide:rocket', 'fa6-solid:rocket', 'fa6-brands:github', 'fa6-brands:github', 'fa6-regular:bell', 'fa6-solid:gear']);
    for (const svg of page.selectAll('svg')) {
      expect(svg.attr('aria-hidden')).toBe('true');
      expect(svg.attr('viewBox')).toMatch(/^0 0 \d+ \d+$/);
      expect(svg.select('path')).toBeDefined();
    }
    expect(page.select('p svg[data-icon="lucide:rocket"]')!.attr('height')).toBe('24px');
    expect(page.select('.icon:has(svg[data-icon="fa6-solid:gear"])')!.attr('style')).toContain('color: #16a34a');
  });
  it('draw icons in cards, accordions and steps', async () => {
    const page = await prose('/icons');
    expect(page.selectAll('.card-icon svg').map((svg) => svg.attr('data-icon'))).toEqual(['fa6-brands:github', 'fa6-brands:docker', 'lucide:columns-3']);
    expect(page.selectAll('summary svg').filter((svg) => svg.attr('data-icon')).map((svg) => svg.attr('data-icon'))).toEqual(['fa6-solid:circle-info', 'lucide:bot']);
    expect(page.selectAll('.step-marker svg').map((svg) => svg.attr('data-icon'))).toEqual(['fa6-solid:download', 'fa6-solid:gear']);
  });
  it('put only the icons a page uses in it', async () => {
    const built = await site();
    const html = built.page('/icons').html;
    expect(html.match(/<svg /g)!.length).toBeLessThan(40);
    expect(html.length).toBeLessThan(200_000);
  });
  it('an unknown name draws nothing and warns with the closest names; a live service warns and shows a placeholder', async () => {
    const built = await buildFixture('components', {
      files: {
        'unknown.mdx': '---\ntitle: Unknown\n---\n\n<Icon icon="rocet" />\n\n<Card title="A" icon="gitbub">x</Card>\n\n<Icon icon="bell" iconType="fancy" />\n\n<Zapp id="flutter" />\n',
      },
    });
    const messages = built.result.problems.filter((p) => p.file === 'unknown.mdx').map((p) => `${p.line} ${p.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^5 <Icon>: unknown icon `rocet`: .*did you mean `rocket`/),
      expect.stringMatching(/^7 <Card>: unknown icon `gitbub`: .*did you mean `github`/),
      expect.stringMatching(/^9 <Icon>: iconType `fancy` is not one of regular, solid/),
      expect.stringMatching(/^11 <Zapp> needs a live service/),
    ]);
    const page = built.page('/unknown').select('.prose')!;
    expect(page.selectAll('svg[data-icon]').map((svg) => svg.attr('data-icon'))).toEqual(['fa6-solid:bell', 'lucide:square-play']);
    expect(page.select('.live-placeholder a')!.attr('href')).toBe('https://zapp.run/edit/flutter');
  }, 120_000);
});

describe('media', () => {
  it('facades request nothing from another site before the reader clicks', async () => {
    const page = (await site()).page('/media');
    expect(page.selectAll('iframe')).toEqual([]);
    for (const el of page.selectAll('[src], [srcset], [poster], [data], [href][rel~="preload"]')) {
      for (const name of ['src', 'srcset', 'poster', 'data', 'href']) {
        const value = el.attr(name);
        if (value !== undefined) expect(value, `${name}="${value}"`).not.toMatch(/^(?:https?:)?\/\//);
      }
    }
    const facades = page.selectAll('[data-docs-facade]');
    expect(facades.map((f) => f.attr('data-docs-facade'))).toEqual(['youtube', 'vimeo', 'video', 'tweet']);
    expect(facades.map((f) => f.attr('data-load'))).toEqual([
      'https://www.youtube-nocookie.com/embed/X8ipUgXH6jw?autoplay=1',
      'https://player.vimeo.com/video/253989945?autoplay=1&dnt=1',
      'https://media.example.com/demo.mp4',
      'https://platform.twitter.com/embed/Tweet.html?id=1513662173796605958&dnt=true&hideCard=true&hideThread=true',
    ]);
    for (const facade of facades) expect(facade.select('button.facade-button')!.attr('aria-label')).toMatch(/^(Play video|Load post): /);
    expect(page.select('blockquote.tweet a')!.attr('href')).toBe('https://x.com/i/status/1513662173796605958');
    // A file of the site plays in place.
    expect(page.select('video.video source')!.attr('src')).toBe('/clip.mp4');
  });
  it('the page allows framing exactly the players it may load; other pages frame nothing', async () => {
    const built = await site();
    expect(policyOf(built, '/media')).toContain('frame-src https://www.youtube-nocookie.com https://player.vimeo.com https://platform.twitter.com;');
    expect(policyOf(built, '/tabs')).toContain("frame-src 'none'");
  });
  it('Image has a caption, zoom as a button, a size and a colour scheme; Frame a Markdown caption and a hint', async () => {
    const page = await prose('/media');
    const [zoomed, light] = page.selectAll('figure.image');
    expect(zoomed!.select('figcaption')!.text).toBe('A caption under the picture');
    expect(zoomed!.select('button[data-docs-image-zoom]')!.attr('aria-label')).toBe('Enlarge image: A picture');
    expect(zoomed!.select('img')!.attr('src')).toBe('/picture.png');
    expect(light!.attr('data-only')).toBe('light');
    expect(light!.select('img')!.attr('width')).toBe('200');
    expect(light!.select('button')).toBeUndefined();
    const frame = page.select('figure.frame')!;
    expect(frame.select('figcaption strong')!.text).toBe('framed');
    expect(frame.select('figcaption a')!.attr('href')).toBe('/');
    expect(page.select('.frame-hint')!.text).toBe('Look closely');
  });
});

describe('callouts', () => {
  it('every kind has its own type, colour rule and icon', async () => {
    const page = await prose('/callouts');
    const callouts = page.selectAll('.callout');
    expect(callouts.map((c) => c.attr('data-type'))).toEqual(['note', 'tip', 'info', 'warning', 'danger', 'error', 'success', 'check', 'note']);
    expect(texts(callouts.map((c) => c.select('.callout-title')!))).toEqual(['Note', 'Tip', 'Info', 'Warning', 'Danger', 'Error', 'Success', 'Check', 'Note']);
    const icons = callouts.slice(0, 8).map((c) => c.select('svg')!.attr('data-icon'));
    expect(new Set(icons).size).toBe(8);
    // Mintlify's custom callout: its icon (regular `key` is not in the free set: solid) and colour.
    expect(callouts[8]!.attr('style')).toBe('--c: #FFC107');
    expect(callouts[8]!.select('svg')!.attr('data-icon')).toBe('fa6-solid:key');
    const css = (await site()).page('/callouts').selectAll('style').map((style) => style.text).join('');
    for (const type of ['note', 'tip', 'warning', 'danger', 'error', 'success', 'check']) expect(css).toContain(`[data-type=${type}]`);
  });
});

describe('component styles', () => {
  const stylesheetOf = (built: BuiltSite, route: string) => {
    const links = built.page(route).selectAll('link[rel="stylesheet"]').map((link) => link.attr('href')!);
    expect(links).toHaveLength(1);
    return built.file(links[0]!.slice(1));
  };
  const inlineOf = (built: BuiltSite, route: string) => built.page(route).selectAll('style').map((style) => style.text).join('');

  it('a page carries the rules of the components it shows, before the stylesheet every page shares', async () => {
    const built = await site();
    expect(inlineOf(built, '/callouts')).toMatch(/\.callout\[data-astro-cid-[a-z0-9]+\]\{/);
    expect(inlineOf(built, '/fields')).not.toContain('.callout[');
    expect(inlineOf(built, '/fields')).toMatch(/\.field\[data-astro-cid-[a-z0-9]+\]/);
    // Before the link: the order of the bundle Astro made (component styles first, the layout's after them).
    const html = built.page('/callouts').html;
    expect(html.lastIndexOf('.callout[data-astro-cid-')).toBeLessThan(html.indexOf('<link rel="stylesheet"'));
  });
  it('the shared stylesheet keeps the layout and leaves out every component’s scoped rules', async () => {
    const built = await site();
    const shared = stylesheetOf(built, '/callouts');
    expect(stylesheetOf(built, '/fields')).toBe(shared);
    expect(shared).toContain('.site-header{');
    expect(shared).not.toContain('data-astro-cid-');
  });
});

describe('layout components', () => {
  it('Columns, cards (horizontal, typed, call to action), badges', async () => {
    const page = await prose('/layout');
    expect(page.select('.columns')!.attr('style')).toBe('--cols: 2');
    expect(page.select('.card[data-type="warning"] svg')!.attr('data-icon')).toBe('lucide:triangle-alert');
    expect(page.select('.card[data-horizontal]')).toBeDefined();
    expect(page.select('.card-cta a')!.text.trim()).toBe('Read the fields');
    expect(page.select('.card-cta a')!.attr('href')).toBe('/fields');
    const badges = page.selectAll('.badge');
    expect(texts(badges)).toEqual(['Default', 'Verified', 'Beta']);
    expect(badges.map((b) => [b.attr('data-color'), b.attr('data-shape'), b.attr('data-size')])).toEqual([
      ['gray', 'rounded', 'md'],
      ['green', 'pill', 'md'],
      ['red', 'rounded', 'sm'],
    ]);
    expect(badges[2]!.has('data-stroke')).toBe(true);
  });
  it('Tooltip: a focusable term described by a tooltip that has the tip and the link', async () => {
    const tooltip = (await prose('/layout')).select('[data-docs-tooltip]')!;
    const trigger = tooltip.select('.tooltip-trigger')!;
    const tip = tooltip.select('[role="tooltip"]')!;
    expect(trigger.text).toBe('API');
    expect(trigger.attr('tabindex')).toBe('0');
    expect(trigger.attr('aria-describedby')).toBe(tip.attr('id'));
    expect(tip.text).toContain('Application Programming Interface');
    expect(tip.select('a')!.attr('href')).toBe('/fields');
    expect(trigger.attr('title')).toBeUndefined();
  });
  it('Update, Steps variants, Tile, Panel, Heading, View, Visibility, Prompt, Tree, Color', async () => {
    const page = await prose('/layout');
    const update = page.select('section.update')!;
    expect(update.attr('id')).toBe('2024-10-11');
    expect(update.select('.update-label')!.attr('href')).toBe('#2024-10-11');
    expect(update.select('.update-description')!.text).toBe('v0.1.0');
    expect(texts(update.selectAll('.update-tags li'))).toEqual(['Feature', 'API']);
    const steps = page.select('ol.steps')!;
    expect(steps.attr('data-title-size')).toBe('h3');
    expect(steps.selectAll('.step')[1]!.attr('style')).toBe('counter-set: docs-step 5');
    expect(page.select('.tile .tile-link')!.attr('href')).toBe('/media');
    expect(page.select('aside.side-panel .callout[data-type="info"]')).toBeDefined();
    expect(page.select('h3#custom-section')!.text).toContain('Custom section');
    expect(page.selectAll('section.view').map((v) => v.attr('data-docs-view'))).toEqual(['JavaScript', 'Python']);
    expect(page.text).toContain('Shown to readers.');
    expect(page.text).not.toContain('Only for agents.');
    const prompt = page.select('[data-docs-prompt]')!;
    expect(prompt.select('.prompt-description strong')!.text).toBe('ready');
    expect(prompt.select('.prompt-cursor')!.attr('href')).toBe(`https://cursor.com/link/prompt?text=${encodeURIComponent('You are a helpful assistant.')}`);
    expect(texts(page.selectAll('.tree-folder > details > summary'))).toEqual(['app']);
    expect(texts(page.selectAll('.tree-file'))).toEqual(['layout.tsx', 'package.json']);
    expect(page.selectAll('.swatch').map((s) => s.attr('style'))).toEqual(['background: #3B82F6', 'background: rgb(37, 99, 235)']);
    expect(page.select('.color-row-title')!.text).toBe('Primary');
  });
});

describe('hostile props on the new components', () => {
  it('never reach the page as markup, script URLs or styles', async () => {
    const payload = 'alert(1)';
    const built = await buildFixture('components', {
      files: {
        'hostile.mdx': [
          '---\ntitle: Hostile\n---\n',
          `<YouTube id="x&quot; onerror=&quot;${payload}" title="<img src=x onerror=${payload}>" />`,
          `<Vimeo id="javascript:${payload}" />`,
          `<Tweet id="1&quot;><script>${payload}</script>" />`,
          `<Video src="javascript:${payload}" poster="javascript:${payload}" />`,
          `<Image src="javascript:${payload}" alt="x" />`,
          `<Image src="/picture.png" alt="&quot; onerror=&quot;${payload}" caption="<script>${payload}</script>" width="1;background:red" />`,
          `<Frame caption="[x](javascript:${payload}) <img src=x onerror=${payload}>" hint="<b onclick=${payload}>h</b>">x</Frame>`,
          `<Tooltip tip="<img src=x onerror=${payload}>" cta="go" href="javascript:${payload}">t</Tooltip>`,
          `<Color><Color.Item name="n" value="red;background:url(javascript:${payload})" /></Color>`,
          `<Badge color="red;x:y" icon="<svg onload=${payload}>">b</Badge>`,
          `<Callout color="red;background:url(javascript:${payload})" icon="javascript:${payload}">c</Callout>`,
          `<Tabs><TabItem value="a" label="<img src=x onerror=${payload}>">a</TabItem></Tabs>`,
          `<ParamField query="<img src=x onerror=${payload}>" type="<script>${payload}</script>" default="<b>x</b>" id="x&quot; onclick=&quot;${payload}">p</ParamField>`,
          `<Update label="<img src=x onerror=${payload}>" tags="<script>${payload}</script>">u</Update>`,
          `<Prompt description="[x](javascript:${payload})" actions="cursor">p</Prompt>`,
          `<Heading type="script" id="x onclick=${payload}">h</Heading>`,
          `<Icon icon="https://evil.example/x.svg" size="1;x" />`,
          '',
        ].join('\n\n'),
      },
    });
    const html = built.page('/hostile').select('.prose')!;
    // Every payload is text: no element it names, no handler attribute, no script but the components' own files.
    expect(html.selectAll('img[src="x"], b, svg[onload], [onerror], [onclick], [onload]')).toEqual([]);
    for (const el of html.selectAll('*')) expect(Object.keys(el.node.properties ?? {}).filter((key) => /^on/i.test(key))).toEqual([]);
    expect(html.selectAll('script').map((s) => s.attr('src'))).toEqual(html.selectAll('script').map(() => expect.stringMatching(/^\/_astro\/[\w.-]+\.js$/)));
    expect(html.text).not.toContain('javascript:alert(1)Note');
    for (const el of html.selectAll('[href], [src], [poster], [style], [id]')) {
      for (const name of ['href', 'src', 'poster', 'style']) expect(el.attr(name) ?? '').not.toMatch(/javascript:|url\(/i);
      expect(el.attr('id') ?? '').not.toMatch(/["\s]/);
    }
    expect(html.select('h2.heading')!.attr('id')).toBeUndefined();
    expect(html.select('.callout .icon')).toBeUndefined();
  }, 120_000);
});
