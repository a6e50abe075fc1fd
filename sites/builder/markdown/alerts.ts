import type { MdastPluginDefinition } from 'satteri';

/**
 * GitHub alerts as the renderer's callouts, a Sätteri mdast plugin of the MDX compiler:
 *
 *   > [!NOTE]                       <Note>
 *   > Read this first.       ->     Read this first.
 *                                   </Note>
 *
 * As on GitHub, the marker (`[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`, `[!WARNING]`, `[!CAUTION]`, any case) is alone on
 * the first line of a blockquote; anything else (another word in the brackets, text after the marker on its
 * line) leaves a plain blockquote. The callout keeps GitHub's label ("Important", "Caution") where the
 * component's own differs. Runs after the sanitiser, on a tree it has cleaned: the callout's content is the
 * blockquote's.
 */

interface Kind {
  component: 'Note' | 'Tip' | 'Info' | 'Warning' | 'Danger';
  title?: string;
}

export const ALERT_KINDS: Readonly<Record<string, Kind>> = {
  NOTE: { component: 'Note' },
  TIP: { component: 'Tip' },
  IMPORTANT: { component: 'Info', title: 'Important' },
  WARNING: { component: 'Warning' },
  CAUTION: { component: 'Danger', title: 'Caution' },
};

const MARKER = /^\[!([A-Za-z]+)\][ \t]*(?:\r?\n|$)/;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyNode = any;

/** The callout a blockquote stands for, with its content, or undefined when it is a plain blockquote. */
export function alertOf(blockquote: AnyNode): { kind: Kind; children: AnyNode[] } | undefined {
  const [first, ...others] = (blockquote.children ?? []) as AnyNode[];
  if (first?.type !== 'paragraph') return undefined;
  const [text, ...inline] = (first.children ?? []) as AnyNode[];
  if (text?.type !== 'text') return undefined;
  const marker = MARKER.exec(text.value ?? '');
  const kind = marker ? ALERT_KINDS[marker[1]!.toUpperCase()] : undefined;
  if (!marker || !kind) return undefined;
  const rest = (text.value as string).slice(marker[0].length);
  // `> [!NOTE]\` or `> [!NOTE]  ` (a hard break after the marker) leaves a break first: it goes with the marker.
  while (rest === '' && inline[0]?.type === 'break') inline.shift();
  const paragraph = rest === '' ? inline : [{ type: 'text', value: rest }, ...inline];
  const children = paragraph.length > 0 ? [{ ...first, children: paragraph }, ...others] : others;
  return { kind, children };
}

export function createAlertsPlugin(): MdastPluginDefinition {
  return {
    name: 'docs-github-alerts',
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    blockquote(node: AnyNode, ctx: any) {
      const alert = alertOf(node);
      if (!alert) return;
      const { component, title } = alert.kind;
      ctx.replaceNode(node, {
        type: 'mdxJsxFlowElement',
        name: component,
        attributes: title ? [{ type: 'mdxJsxAttribute', name: 'title', value: title }] : [],
        children: alert.children,
      });
    },
  } as MdastPluginDefinition;
}
