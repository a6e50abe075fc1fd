/**
 * The XSS corpus of tests/docs-hosting/xss-corpus.test.ts: payloads in every input a repository controls, as the
 * files of a repository (`corpusFiles`) and a Mintlify docs.json for the same pages (`mintlifyJson`).
 */
import { MDX_COMPONENTS } from '../../sites/content/sanitize.ts';

export const EVIL = 'https://evil.example/x.js';
/** What a payload runs, without a double quote (payloads sit in attributes of either quote). */
const RUN = ['alert(1)', 'window.__xss=1', "fetch('/__xss')", 'alert(document.domain)'];
const js = (i: number) => RUN[i % RUN.length]!;
/** The same, without any quote (inside single-quoted literals and unquoted HTML). */
const bare = (i: number) => (i % 2 ? 'window.__xss=1' : 'alert(1)');
/** `{"text"}` or `{'text'}`: a literal expression, the form the sanitiser once let through unchecked. */
const literal = (text: string) => (text.includes('"') ? `{'${text}'}` : `{"${text}"}`);

/** URL schemes that run script, written the ways filters miss. */
const SCRIPT_URLS = (i: number) => [
  `javascript:${js(i)}`,
  `JaVaScRiPt:${js(i)}`,
  `java\tscript:${js(i)}`,
  ` javascript:${js(i)}`,
  `javascript&colon;${js(i)}`,
  `&#106;avascript:${js(i)}`,
  `javascript://%0a${js(i)}`,
  `jav&#x09;ascript:${js(i)}`,
  `data:text/html,<script>${bare(i)}</script>`,
  `data:text/html;base64,${Buffer.from(`<script>${bare(i)}</script>`).toString('base64')}`,
  `vbscript:${js(i)}`,
  `data:image/svg+xml,<svg onload=${bare(i)}>`,
];

/** The places a URL goes: Markdown and HTML, attributes as strings and as literals, components' URL props. */
const urlPayloads = (): string[] =>
  SCRIPT_URLS(0).flatMap((url, i) => {
    const md = url.replace(/[ ()<>]/g, encodeURIComponent);
    const quoted = url.replace(/"/g, '&quot;');
    return [
      `[link ${i}](${md})`,
      `![image ${i}](${md})`,
      `[defined ${i}][d${i}]\n\n[d${i}]: ${md}`,
      `<a href="${quoted}">a ${i}</a>`,
      `<a href=${literal(url)}>a literal ${i}</a>`,
      `<img src=${literal(url)} alt="img ${i}" />`,
      `<Card title="card ${i}" href=${literal(url)}>card</Card>`,
      `<Image src="${quoted}" alt="image ${i}" />`,
      `<Tile href="${quoted}" title="tile ${i}" />`,
      `<Tooltip tip="tip" href=${literal(url)}>tooltip ${i}</Tooltip>`,
    ];
  });

/** Event handlers on HTML elements: as strings, literal expressions in either quote, any casing. */
const HANDLED = [
  ['img src="x"', 'onerror'],
  ['div', 'onmouseover'],
  ['a href="#x"', 'onfocus'],
  ['details open', 'ontoggle'],
  ['video src="x"', 'onerror'],
  ['audio src="x"', 'onerror'],
  ['span', 'onpointerenter'],
  ['p', 'onanimationstart'],
  ['h2', 'onclick'],
  ['table', 'onmouseover'],
  ['blockquote', 'onload'],
  ['figure', 'onerror'],
] as const;
const handlerPayloads = (): string[] =>
  HANDLED.flatMap(([open, event], i) => {
    const tag = open.split(' ')[0]!;
    const camel = `on${event[2]!.toUpperCase()}${event.slice(3)}`;
    return [
      `<${open} ${event}="${js(i)}">${tag}</${tag}>`,
      `<${open} ${event}=${literal(js(i))}>${tag}</${tag}>`,
      `<${open} ${camel}={'${bare(i)}'}>${tag}</${tag}>`,
      `<${open} ${event.toUpperCase()}="${js(i + 1)}">${tag}</${tag}>`,
    ];
  });

/** Astro directives on HTML elements and components, as strings and literal expressions. */
const SCRIPT_HTML = [`<script src="${EVIL}"></script>`, `<img src=x onerror=${bare(1)}>`, `<script>${bare(0)}</script>`];
const directivePayloads = (): string[] => [
  ...['div', 'span', 'p', 'a', 'section'].flatMap((tag, i) => [
    `<${tag} set:html=${literal(SCRIPT_HTML[i % 3]!)} />`,
    `<${tag} set:html={'${SCRIPT_HTML[(i + 1) % 3]!.replace(/'/g, '"')}'} />`,
    `<${tag} set:html="${SCRIPT_HTML[(i + 2) % 3]!.replace(/"/g, "'")}" />`,
    `<${tag} is:raw set:text=${literal(SCRIPT_HTML[i % 3]!)}>raw</${tag}>`,
    `<${tag} define:vars=${literal(js(i))} client:load="x">vars</${tag}>`,
  ]),
  `<Fragment set:html=${literal(SCRIPT_HTML[0]!)} />`,
  `<Note set:html=${literal(SCRIPT_HTML[1]!)}>note</Note>`,
  `<Card title="c" set:html=${literal(SCRIPT_HTML[0]!)}>card</Card>`,
  `<Tabs><Tab title="t" set:html=${literal(SCRIPT_HTML[2]!)}>tab</Tab></Tabs>`,
  `<Accordion title="a" is:raw client:load>acc</Accordion>`,
];

/** Raw HTML and JSX that carries script by itself. */
const htmlPayloads = (): string[] => [
  `<script>${js(0)}</script>`,
  `<script src="${EVIL}"></script>`,
  `<img src="x" onError={() => ${js(1)}} />`,
  `<svg onload="${js(2)}"></svg>`,
  `<svg><script>${js(3)}</script></svg>`,
  `<iframe src="javascript:${js(0)}"></iframe>`,
  `<iframe srcdoc="<script>${bare(1)}</script>"></iframe>`,
  `<iframe srcdoc=${literal(`<script src=${EVIL}></script>`)}></iframe>`,
  `<iframe src="https://www.youtube.com/embed/abcdefgh" onload="${js(2)}"></iframe>`,
  `<object data="javascript:${js(2)}"></object>`,
  `<embed src="javascript:${js(3)}" />`,
  `<form action="javascript:${js(0)}"><button>go</button></form>`,
  `<button formaction="javascript:${js(1)}">go</button>`,
  `<input autofocus onfocus="${js(2)}" />`,
  `<body onload="${js(3)}"></body>`,
  `<math><mtext><script>${js(0)}</script></mtext></math>`,
  `<meta httpEquiv="refresh" content="0;url=javascript:${js(1)}" />`,
  `<base href="javascript:${js(2)}//" />`,
  `<link rel="stylesheet" href="javascript:${js(3)}" />`,
  `<link rel="import" href="${EVIL}" />`,
  `<style>{"@import 'javascript:${js(0)}';"}</style>`,
  `<div style="background:url(javascript:${js(1)})">styled</div>`,
  `<div style=${literal(`background:url(javascript:${bare(2)})`)}>styled literal</div>`,
  `<span dangerouslySetInnerHTML={{ __html: '<img src=x onerror=${bare(3)}>' }} />`,
  `<div {...{ onClick: () => ${js(0)} }}>spread</div>`,
  `<p>{${js(1)}}</p>`,
  `<template><script>${js(2)}</script></template>`,
  `<noscript><img src="x" onerror="${js(3)}" /></noscript>`,
  `<portal src="javascript:${js(0)}"></portal>`,
  `<video src="x" poster="javascript:${js(1)}" autoPlay onplay="${js(1)}"></video>`,
  `<video><source src="javascript:${js(2)}" onerror="${js(2)}" /></video>`,
  `<frameset onload="${js(3)}"></frameset>`,
  `<textarea autofocus onfocus="${js(0)}">x</textarea>`,
  `<select autofocus onfocus="${js(1)}"><option>x</option></select>`,
  `<keygen autofocus onfocus="${js(2)}" />`,
  `<marquee onstart="${js(3)}">m</marquee>`,
  `<isindex action="javascript:${js(0)}" />`,
  `<img srcset="javascript:${js(1)} 1x, x 2x" alt="srcset" />`,
  `<a href="#" data-docs-frame="https://www.youtube-nocookie.com" data-analytics="tag-manager">marks</a>`,
  `<div data-mermaid="x"><pre><code>{"graph TD; A-->B; click A call alert(1)"}</code></pre></div>`,
  `<a xlink:href="javascript:${js(2)}">xlink</a>`,
];

/** A value for a component prop: markup, a script URL, an attribute breaking out, a script-looking value. */
const PROP_VALUES = (i: number) => [`"><img src=x onerror=${bare(i)}>`, `javascript:${js(i)}`, `'><script src=${EVIL}></script>`, `</script><script>${bare(i)}</script>`];
/** Every documented prop of every built-in component (sanitize.ts MDX_COMPONENTS), as a string and as a literal. */
const componentPayloads = (): string[] => {
  const list: string[] = [];
  let n = 0;
  for (const [name, props] of Object.entries(MDX_COMPONENTS)) {
    for (const prop of props) {
      const value = PROP_VALUES(n)[n % 4]!;
      const attribute = n % 2 ? `${prop}=${literal(value)}` : `${prop}='${value.replace(/'/g, '"')}'`;
      list.push(`<${name} ${attribute}>${name} ${prop}</${name}>`);
      n++;
    }
  }
  list.push(
    `<Tabs values={[{ label: '<img src=x onerror=${bare(0)}>', value: 'javascript:${bare(0)}' }]}><TabItem value="javascript:${bare(0)}" label="<script>${bare(1)}</script>">t</TabItem></Tabs>`,
    `<Update label="u" tags={["<img src=x onerror=${bare(1)}>", "</script><script>${bare(0)}</script>"]}>u</Update>`,
    `<ParamField body="b" pre={["<img src=x onerror=${bare(0)}>"]} post={["javascript:${bare(1)}"]}>p</ParamField>`,
    `<Prompt description="[x](javascript:${bare(0)}) **<img src=x onerror=${bare(1)}>**" actions={["copy", "<script>${bare(0)}</script>"]}>prompt</Prompt>`,
    `<Frame caption="[c](javascript:${bare(1)})" hint="<img src=x onerror=${bare(0)}>">frame</Frame>`,
  );
  return list;
};

/** Code blocks, their titles and meta, Mermaid and math. */
const codePayloads = (): string[] => [
  `\`\`\`html\n<script>${js(0)}</script>\n<img src=x onerror=${bare(1)}>\n\`\`\``,
  `\`\`\`js title="<img src=x onerror=${bare(2)}>"\n${js(2)}\n\`\`\``,
  `\`\`\`js title="</figcaption><script>${bare(3)}</script>" {1} showLineNumbers\nx\n\`\`\``,
  `\`\`\`<img/src=x/onerror=${bare(0)}>\nlanguage as markup\n\`\`\``,
  `\`\`\`js icon="javascript:${bare(1)}" lines wrap theme={"dark"}\nx\n\`\`\``,
  `\`<script>${js(1)}</script>\` and \`</code><img src=x onerror=${bare(2)}>\``,
  `<CodeGroup>\n\n\`\`\`js <img src=x onerror=${bare(3)}>\nx\n\`\`\`\n\n\`\`\`py title="'><script src=${EVIL}></script>"\ny\n\`\`\`\n\n</CodeGroup>`,
  `<RequestExample>\n\n\`\`\`bash <script>${bare(0)}</script>\ncurl x\n\`\`\`\n\n</RequestExample>`,
  '```mermaid\ngraph TD\n  A["<img src=x onerror=alert(1)>"] --> B\n  click A callback "tip"\n  click B "javascript:alert(1)"\n```',
  '```mermaid\n%%{init: {"securityLevel": "loose"}}%%\ngraph TD\n  A["<a href=\'javascript:alert(1)\'>x</a>"] --> B["<iframe src=javascript:alert(1)>"]\n  click A call alert(1)\n```',
  '```mermaid\nsequenceDiagram\n  A->>B: <img src=x onerror=alert(1)>\n  Note right of B: <script>alert(1)</script>\n```',
  '```mermaid\nflowchart LR\n  A[x] --> B[y]\n  style A fill:url(javascript:alert(1))\n  linkStyle 0 stroke:red;background:url(javascript:alert(1))\n```',
  '```mermaid\ngraph TD\n  A --> B\n  click A href "javascript:alert(1)" _self\n```',
  '$$\n\\href{javascript:alert(1)}{click}\n$$',
  '$\\url{javascript:alert(1)}$ and $\\htmlData{onclick=alert(1)}{x}$ and $\\htmlStyle{background:url(javascript:alert(1))}{y}$',
  '$$\n\\includegraphics{javascript:alert(1)}\n$$',
  '$\\text{x" onerror="alert(1)}$ and $\\class{x" onmouseover="alert(1)}{z}$ and $\\href{javascript:alert(1)}{y}$',
  'https://example.com/%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E and javascript:alert(1) as text',
  '[javascript:alert(1)](javascript:alert(1) "title\\" onmouseover=\\"alert(1)")',
  'www.example.com/<script>alert(1)</script>',
];

/** docs.json variables (substituted into page bodies before MDX reads them) and where they are used. */
const variables = {
  evilHtml: `<img src="x" onerror=${literal(js(0))} />`,
  evilScript: `<script src="${EVIL}"></script>`,
  evilSetHtml: `<div set:html=${literal(SCRIPT_HTML[1]!)} />`,
  evilUrl: `javascript:${js(1)}`,
  evilExpression: `{${js(2)}}`,
  nested: { evil: `<a href=${literal(`javascript:${js(3)}`)}>nested</a>` },
};
const variablePayloads = (): string[] => [
  '{{ evilHtml }}',
  '{{ evilScript }}',
  '{{ evilSetHtml }}',
  '[variable link]({{ evilUrl }})',
  '<a href="{{ evilUrl }}">variable href</a>',
  '{{ evilExpression }}',
  '{{ nested.evil }}',
  '`{{ evilScript }}`',
];

/** Frontmatter values (the page's head, hero, image, links to neighbours), in docs.page's and Mintlify's keys. */
const frontmatter = (i: number) =>
  [
    '---',
    `title: "</title><script>${bare(i)}</script>"`,
    `description: "\\"><img src=x onerror=${bare(i)}>"`,
    `image: "javascript:${js(i)}"`,
    `previous: { title: "<svg onload=${bare(i)}>", href: "javascript:${js(i)}" }`,
    `next: { title: "<img src=x onerror=${bare(i)}>", href: "data:text/html,<script>${bare(i)}</script>" }`,
    `sidebarTitle: "<img src=x onerror=${bare(i)}>"`,
    `icon: "javascript:${js(i)}"`,
    `"og:title": "\\"><script>${bare(i)}</script>"`,
    `keywords: ["</script><script>${bare(i)}</script>"]`,
    '---',
  ].join('\n');
const FRONTMATTER_VALUES = 9;

/** docs.json in docs.page's keys: every value an author sets that reaches a page. */
const docsJson = {
  name: `Corpus</title><script>${js(0)}</script>`,
  description: `"><img src=x onerror=${bare(1)}>`,
  variables,
  banner: { message: `<img src=x onerror=${bare(2)}> [x](javascript:${bare(2)})`, href: `javascript:${js(0)}` },
  header: {
    title: `<svg onload=${bare(0)}>`,
    links: [{ title: `<svg onload=${bare(1)}>`, href: `javascript:${js(1)}` }],
    cta: { title: `"><script>${bare(2)}</script>`, href: `data:text/html,<script>${bare(2)}</script>` },
  },
  social: { website: `javascript:${js(2)}`, github: `"><img src=x onerror=${bare(0)}>`, x: 'javascript:alert(1)', codeHost: 'https://github.com/acme' },
  logo: { light: `javascript:${js(0)}`, dark: 'images/evil.svg' },
  favicon: { light: `javascript:${js(1)}`, dark: 'images/evil.svg' },
  scripts: {
    vendorTagManager: `');${js(1)};('`,
    vendorAnalytics: `"></script><script>${bare(2)}</script>`,
    altAnalytics: `https://evil.example/"><script>${bare(0)}</script>`,
    vendorSiteVerification: `"><script>${bare(1)}</script>`,
  },
  theme: { primary: `red;}</style><script>${bare(0)}</script><style>`, primaryDark: `#fff"><script>${bare(1)}</script>`, backgroundLight: `url(javascript:${bare(2)})` },
  anchors: [{ title: `<img src=x onerror=${bare(1)}>`, href: `javascript:${js(1)}`, icon: `javascript:${js(1)}` }],
  tabs: [{ id: 'evil', title: `<script>${bare(2)}</script>`, href: '/' }],
  sidebar: [
    {
      group: `<img src=x onerror=${bare(1)}>`,
      pages: [
        { title: 'Home', href: '/' },
        { title: `<script>${bare(2)}</script>`, href: `javascript:${js(2)}`, icon: `javascript:${js(2)}` },
        { title: 'Elsewhere', href: `data:text/html,<script>${bare(3)}</script>` },
      ],
    },
  ],
  redirects: { '/go': `javascript:${js(0)}`, '/go-data': `data:text/html,<script>${bare(0)}</script>`, '/go-vb': ` vbscript:${js(0)}` },
  search: { docsearch: { appId: `"><script>${bare(1)}</script>`, apiKey: `</script><script>${bare(1)}</script>`, indexName: `');${js(1)};('` } },
  agent: { key: 'x', placeholder: `"><img src=x onerror=${bare(2)}>`, questions: [`<script>${bare(2)}</script>`] },
  seo: { noindex: false },
};
const DOCS_JSON_VALUES = 36;

/** The same repository's pages under Mintlify's docs.json (its navigation, navbar, footer, integrations). */
export const mintlifyJson = {
  $schema: 'https://mintlify.com/docs.json',
  theme: 'mint',
  name: `Mint</title><script>${bare(0)}</script>`,
  colors: { primary: '#0D9373', light: `#fff;}</style><script>${bare(1)}</script>`, dark: '#000' },
  logo: `javascript:${js(2)}`,
  favicon: 'images/evil.svg',
  navigation: {
    tabs: [{ tab: `<img src=x onerror=${bare(0)}>`, groups: [{ group: `<svg onload=${bare(1)}>`, pages: ['index', 'urls'] }] }],
    global: { anchors: [{ anchor: `<script>${bare(2)}</script>`, icon: 'javascript:alert(1)', href: `javascript:${js(2)}` }] },
  },
  navbar: {
    links: [{ label: `<img src=x onerror=${bare(3)}>`, href: `javascript:${js(3)}` }],
    primary: { type: 'button', label: `"><script>${bare(0)}</script>`, href: `data:text/html,<script>${bare(0)}</script>` },
  },
  footer: { socials: { x: `javascript:${js(1)}`, github: `"><img src=x onerror=${bare(1)}>` } },
  integrations: { gtm: { tagId: `');${js(2)};('` }, plausible: { domain: `"><script>${bare(2)}</script>`, server: 'stats.example' } },
  redirects: [{ source: '/go', destination: `javascript:${js(3)}` }],
  banner: { content: `<img src=x onerror=${bare(3)}>` },
};
const MINTLIFY_VALUES = 18;

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" onload="${js(0)}"><script>${js(1)}</script><circle r="4"/><foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:${js(2)}"/></foreignObject></svg>`;

/** One page per group of payloads, each payload after its marker. */
const GROUPS: Record<string, () => string[]> = {
  urls: urlPayloads,
  handlers: handlerPayloads,
  directives: directivePayloads,
  html: htmlPayloads,
  components: componentPayloads,
  code: codePayloads,
  variables: variablePayloads,
};

export function corpusFiles(): { files: Record<string, string>; payloads: number; markers: Record<string, string[]> } {
  const files: Record<string, string> = {
    'docs.json': JSON.stringify(docsJson),
    'images/evil.svg': SVG,
    'public/evil.svg': SVG,
    'index.mdx': '# Corpus\n\nThe home page.\n',
    'redirecting.mdx': `---\nredirect: "javascript:${js(0)}"\n---\n\nAway.\n`,
  };
  const markers: Record<string, string[]> = {};
  let payloads = 0;
  let n = 0;
  for (const [group, make] of Object.entries(GROUPS)) {
    const list = make();
    markers[`/${group}`] = list.map(() => `P${++n}.`);
    files[`${group}.mdx`] = `${frontmatter(payloads)}\n\n${list.map((payload, i) => `${markers[`/${group}`]![i]}\n\n${payload}\n`).join('\n')}`;
    payloads += list.length + FRONTMATTER_VALUES;
  }
  // The 404 page: payloads of its own, served for every unknown path.
  const notFound = [...htmlPayloads().slice(0, 8), ...directivePayloads().slice(0, 5), ...urlPayloads().slice(0, 10)];
  markers['/no-such-page'] = notFound.map(() => `P${++n}.`);
  files['404.mdx'] = `${frontmatter(1)}\n\n${notFound.map((payload, i) => `${markers['/no-such-page']![i]}\n\n${payload}\n`).join('\n')}`;
  payloads += notFound.length + FRONTMATTER_VALUES + 1; // and the redirecting page
  payloads += DOCS_JSON_VALUES + MINTLIFY_VALUES + 2; // docs.json, Mintlify's docs.json, the SVG file (twice)
  return { files, payloads, markers };
}

