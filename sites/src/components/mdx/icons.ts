/**
 * Icons for the built-in components, drawn at build time as inline SVG from the installed Iconify sets: Lucide and
 * Font Awesome 6 (solid, regular, brands). Nothing is fetched and no icon font ships: a page carries the SVG of the
 * icons it uses and no other.
 *
 * Names are read the ways docs.page and Mintlify authors write them:
 *   `rocket`                      Font Awesome solid, else brands, else Lucide, else Font Awesome regular
 *   `github`                      (docs.page and Mintlify: brand names resolve without a style)
 *   `fa-solid fa-rocket`, `fas fa-rocket`, `fa-brands fa-github`, `brands github`, `regular bell`
 *   `lucide:rocket`, `fa6-brands:github`                              (Iconify names)
 *   `iconType="regular"` (Mintlify; regular, solid, brands; light/thin/sharp-* fall back to what is installed)
 *   Font Awesome 5 names (`cog`, `home`, `external-link-alt`…) and this project's earlier names (`note`, `tip`…).
 * An unknown name draws nothing; `docs check` and the build warn with the closest names (sanitize.ts calls
 * {@link iconProblem}).
 */
import { createRequire } from 'node:module';
import { getIconData, iconToSVG } from '@iconify/utils';
import { distance } from 'fastest-levenshtein';

type SetName = 'fa6-solid' | 'fa6-regular' | 'fa6-brands' | 'lucide';
interface IconSet {
  prefix: string;
  icons: Record<string, { body: string; width?: number; height?: number }>;
  aliases?: Record<string, { parent: string }>;
  width?: number;
  height?: number;
}
/** Parameters of getIconData (its set type is stricter than the JSON's). */
type IconifyJSON = Parameters<typeof getIconData>[0];

const SET_LABELS: Record<SetName, string> = {
  'fa6-solid': 'Font Awesome solid',
  'fa6-regular': 'Font Awesome regular',
  'fa6-brands': 'Font Awesome brands',
  lucide: 'Lucide',
};

const require = createRequire(import.meta.url);
const loaded = new Map<SetName, IconSet>();
/** One set, read from its package on first use (the JSON stays out of any bundle). */
function set(name: SetName): IconSet {
  let data = loaded.get(name);
  if (!data) {
    data = require(`@iconify-json/${name}/icons.json`) as IconSet;
    loaded.set(name, data);
  }
  return data;
}

/** Font Awesome 4/5 names renamed in 6 (the Iconify set keeps only the new ones). */
const FA_RENAMES: Record<string, string> = {
  home: 'house', 'home-alt': 'house', cog: 'gear', cogs: 'gears', 'info-circle': 'circle-info', 'question-circle': 'circle-question',
  'exclamation-circle': 'circle-exclamation', 'exclamation-triangle': 'triangle-exclamation', 'check-circle': 'circle-check',
  'times-circle': 'circle-xmark', times: 'xmark', close: 'xmark', remove: 'xmark', 'external-link': 'arrow-up-right-from-square',
  'external-link-alt': 'up-right-from-square', 'external-link-square': 'square-arrow-up-right', edit: 'pen-to-square', 'pencil-alt': 'pencil',
  'trash-alt': 'trash-can', 'sign-out-alt': 'right-from-bracket', 'sign-in-alt': 'right-to-bracket', 'sign-out': 'arrow-right-from-bracket',
  'sign-in': 'arrow-right-to-bracket', search: 'magnifying-glass', 'search-plus': 'magnifying-glass-plus', 'search-minus': 'magnifying-glass-minus',
  navicon: 'bars', 'tachometer-alt': 'gauge-high', tachometer: 'gauge', dashboard: 'gauge', 'shield-alt': 'shield-halved', sync: 'arrows-rotate',
  'sync-alt': 'rotate', refresh: 'arrows-rotate', redo: 'arrow-rotate-right', undo: 'arrow-rotate-left', 'file-alt': 'file-lines',
  'file-text': 'file-lines', mail: 'envelope', 'comment-alt': 'message', 'bar-chart': 'chart-bar', 'line-chart': 'chart-line',
  'pie-chart': 'chart-pie', 'area-chart': 'chart-area', 'cloud-upload-alt': 'cloud-arrow-up', 'cloud-download-alt': 'cloud-arrow-down',
  'cloud-upload': 'cloud-arrow-up', 'cloud-download': 'cloud-arrow-down', 'long-arrow-alt-right': 'right-long', 'long-arrow-right': 'arrow-right-long',
  'long-arrow-alt-left': 'left-long', 'long-arrow-alt-up': 'up-long', 'long-arrow-alt-down': 'down-long', 'arrow-circle-right': 'circle-arrow-right',
  'arrow-circle-left': 'circle-arrow-left', 'arrow-circle-up': 'circle-arrow-up', 'arrow-circle-down': 'circle-arrow-down',
  'chevron-circle-right': 'circle-chevron-right', 'chevron-circle-left': 'circle-chevron-left', 'chevron-circle-up': 'circle-chevron-up',
  'chevron-circle-down': 'circle-chevron-down', 'play-circle': 'circle-play', 'stop-circle': 'circle-stop', 'pause-circle': 'circle-pause',
  'user-circle': 'circle-user', 'plus-circle': 'circle-plus', 'minus-circle': 'circle-minus', 'dot-circle': 'circle-dot', 'check-square': 'square-check',
  'plus-square': 'square-plus', 'minus-square': 'square-minus', 'share-square': 'share-from-square', 'pen-square': 'square-pen',
  'caret-square-down': 'square-caret-down', 'hand-paper': 'hand', 'mobile-alt': 'mobile-screen-button', 'tablet-alt': 'tablet-screen-button',
  magic: 'wand-magic-sparkles', 'level-up-alt': 'turn-up', 'level-down-alt': 'turn-down', 'expand-alt': 'up-right-and-down-left-from-center',
  'compress-alt': 'down-left-and-up-right-to-center', 'expand-arrows-alt': 'maximize', 'arrows-alt': 'up-down-left-right', 'map-marker-alt': 'location-dot',
  'map-marker': 'location-pin', 'shopping-cart': 'cart-shopping', usd: 'dollar-sign', euro: 'euro-sign', 'calendar-alt': 'calendar-days',
  history: 'clock-rotate-left', 'user-cog': 'user-gear', 'users-cog': 'users-gear', 'user-edit': 'user-pen', 'user-times': 'user-xmark',
  heartbeat: 'heart-pulse', medkit: 'suitcase-medical', 'first-aid': 'kit-medical', 'microphone-alt': 'microphone-lines', 'volume-up': 'volume-high',
  'volume-down': 'volume-low', 'volume-mute': 'volume-xmark', 'video-camera': 'video', 'camera-alt': 'camera', photo: 'image',
  'paint-brush': 'paintbrush', 'pencil-ruler': 'pen-ruler', 'drafting-compass': 'compass-drafting', tools: 'screwdriver-wrench', 'sliders-h': 'sliders',
  'sort-amount-down': 'arrow-down-wide-short', 'sort-alpha-down': 'arrow-down-a-z', 'exchange-alt': 'right-left', exchange: 'arrow-right-arrow-left',
  random: 'shuffle', 'share-alt': 'share-nodes', unlink: 'link-slash', chain: 'link', 'unlock-alt': 'unlock-keyhole', hdd: 'hard-drive',
  'project-diagram': 'diagram-project', 'fire-alt': 'fire-flame-curved', burn: 'fire-flame-simple', 'globe-americas': 'earth-americas',
  'globe-europe': 'earth-europe', 'globe-asia': 'earth-asia', 'star-half-alt': 'star-half-stroke', grin: 'face-grin', smile: 'face-smile',
  frown: 'face-frown', meh: 'face-meh', laugh: 'face-laugh', 'sad-tear': 'face-sad-tear', surprise: 'face-surprise', tired: 'face-tired',
  angry: 'face-angry', dizzy: 'face-dizzy', flushed: 'face-flushed', grimace: 'face-grimace', kiss: 'face-kiss', 'list-alt': 'rectangle-list',
  th: 'table-cells', 'th-large': 'table-cells-large', 'th-list': 'table-list', columns: 'table-columns', stream: 'bars-staggered', cut: 'scissors',
  save: 'floppy-disk', 'file-download': 'file-arrow-down', 'file-upload': 'file-arrow-up', archive: 'box-archive', boxes: 'boxes-stacked',
  'low-vision': 'eye-low-vision', sms: 'comment-sms', 'phone-alt': 'phone-flip', 'hospital-alt': 'hospital', university: 'building-columns',
  'shipping-fast': 'truck-fast', walking: 'person-walking', running: 'person-running', male: 'person', female: 'person-dress',
  'user-friends': 'user-group', 'hand-holding-usd': 'hand-holding-dollar', 'hands-helping': 'handshake-angle', 'ellipsis-h': 'ellipsis',
  'ellipsis-v': 'ellipsis-vertical', percentage: 'percent', 'angle-double-right': 'angles-right', 'angle-double-left': 'angles-left',
  'angle-double-up': 'angles-up', 'angle-double-down': 'angles-down', 'arrows-alt-h': 'left-right', 'arrows-alt-v': 'up-down',
  'step-forward': 'forward-step', 'step-backward': 'backward-step', 'fast-forward': 'forward-fast', 'fast-backward': 'backward-fast',
  'sort-numeric-down': 'arrow-down-1-9', tasks: 'list-check', 'thermometer-half': 'temperature-half', coffee: 'mug-saucer', beer: 'beer-mug-empty',
  'glass-martini-alt': 'martini-glass', television: 'tv', 'broadcast-tower': 'tower-broadcast', 'map-signs': 'signs-post', directions: 'diamond-turn-right',
  parking: 'square-parking', 'trash-restore': 'trash-arrow-up', 'balance-scale': 'scale-balanced', 'vote-yea': 'check-to-slot',
  poll: 'square-poll-vertical', 'poll-h': 'square-poll-horizontal', 'prescription-bottle-alt': 'prescription-bottle-medical', ambulance: 'truck-medical',
  'search-location': 'magnifying-glass-location', 'theater-masks': 'masks-theater', 'ticket-alt': 'ticket-simple', tshirt: 'shirt',
  'shopping-bag': 'bag-shopping', 'shopping-basket': 'basket-shopping', 'store-alt': 'shop', donate: 'circle-dollar-to-slot',
  'funnel-dollar': 'filter-circle-dollar', 'heart-broken': 'heart-crack', 'feather-alt': 'feather-pointed', 'crop-alt': 'crop-simple',
  'window-close': 'rectangle-xmark', 'sticky-note': 'note-sticky', 'envelope-square': 'square-envelope', 'phone-square': 'square-phone',
  'rss-square': 'square-rss', 'h-square': 'square-h', 'quote-left-alt': 'quote-left', 'tint': 'droplet', 'lightbulb-o': 'lightbulb',
  'file-code-o': 'file-code', 'clipboard-o': 'clipboard', 'calendar-o': 'calendar', 'bell-o': 'bell', 'star-o': 'star', 'heart-o': 'heart',
  'envelope-o': 'envelope', 'folder-o': 'folder', 'folder-open-o': 'folder-open', 'file-o': 'file', 'comment-o': 'comment', 'user-o': 'user',
};

/** Names this project's components used before the Iconify sets, and a few generic words, with what they draw. */
const WORDS: Record<string, string> = {
  note: 'lucide:pencil', tip: 'lucide:lightbulb', warning: 'lucide:triangle-alert', danger: 'lucide:octagon-alert', error: 'lucide:circle-x',
  success: 'lucide:circle-check', alert: 'lucide:triangle-alert', caution: 'lucide:triangle-alert', important: 'lucide:circle-alert',
  'octagon-exclamation': 'lucide:octagon-alert', bulb: 'lucide:lightbulb', chat: 'lucide:message-square', lightning: 'lucide:zap', earth: 'lucide:earth',
};

type Style = 'solid' | 'regular' | 'brands' | 'lucide';
const STYLE_WORDS: Record<string, Style> = {
  'fa-solid': 'solid', fas: 'solid', solid: 'solid', 'fa-duotone': 'solid', fad: 'solid', duotone: 'solid', 'fa-sharp': 'solid',
  'sharp-solid': 'solid', 'fa-sharp-solid': 'solid', 'sharp-duotone-solid': 'solid', 'fa-regular': 'regular', far: 'regular', regular: 'regular',
  'fa-light': 'regular', fal: 'regular', light: 'regular', 'fa-thin': 'regular', fat: 'regular', thin: 'regular', 'sharp-regular': 'regular',
  'sharp-light': 'regular', 'sharp-thin': 'regular', 'fa-brands': 'brands', fab: 'brands', brands: 'brands', brand: 'brands', lucide: 'lucide',
};
/** The `iconType` values Mintlify documents. */
export const ICON_TYPES = ['regular', 'solid', 'light', 'thin', 'sharp-solid', 'sharp-regular', 'sharp-light', 'sharp-thin', 'sharp-duotone-solid', 'duotone', 'brands'];
const PREFIXES: Record<string, SetName> = {
  lucide: 'lucide', 'fa6-solid': 'fa6-solid', 'fa6-regular': 'fa6-regular', 'fa6-brands': 'fa6-brands', 'fa-solid': 'fa6-solid',
  'fa-regular': 'fa6-regular', 'fa-brands': 'fa6-brands', fas: 'fa6-solid', far: 'fa6-regular', fab: 'fa6-brands',
};
/** Font Awesome size, animation and layout classes, ignored in a class string. */
const MODIFIER = /^fa-(?:fw|xs|sm|lg|xl|2xs|2xl|\d+x|spin(?:-pulse|-reverse)?|pulse|beat(?:-fade)?|fade|bounce|flip(?:-horizontal|-vertical|-both)?|shake|border|inverse|pull-(?:left|right|start|end)|rotate-\d+|rotate-by|li|ul|stack(?:-[12]x)?|width-auto)$/;

const SEARCH_ORDER: Record<Style | 'any', SetName[]> = {
  any: ['fa6-solid', 'fa6-brands', 'lucide', 'fa6-regular'],
  solid: ['fa6-solid', 'fa6-brands', 'fa6-regular', 'lucide'],
  regular: ['fa6-regular', 'fa6-solid', 'fa6-brands', 'lucide'],
  brands: ['fa6-brands', 'fa6-solid', 'lucide'],
  lucide: ['lucide'],
};

export interface ResolvedIcon {
  set: SetName;
  name: string;
  /** SVG content (paths), from the installed set. */
  body: string;
  width: number;
  height: number;
}

/** True for a value that names an icon (not an image path or URL, not an emoji or other text). */
export function isIconName(value: string): boolean {
  return /^[a-z0-9]+(?:[\s:-]+[a-z0-9]+)*$/i.test(value.trim()) && !/^https?:/i.test(value.trim());
}

interface Parsed {
  name: string;
  sets: SetName[];
}

/** The name and the sets to look in, from what an author wrote. */
function parse(raw: string, iconType: string | undefined): Parsed | undefined {
  const text = raw.trim().toLowerCase();
  if (text === '') return undefined;
  const word = WORDS[text];
  if (word) return parse(word, undefined);
  const prefixed = /^([a-z0-9-]+):([a-z0-9-]+)$/.exec(text);
  if (prefixed) {
    const setName = PREFIXES[prefixed[1]!];
    return setName ? { name: prefixed[2]!, sets: [setName] } : undefined;
  }
  let style: Style | undefined;
  let name: string | undefined;
  for (const token of text.split(/\s+/)) {
    if (STYLE_WORDS[token]) style = STYLE_WORDS[token];
    else if (token === 'fa' || MODIFIER.test(token)) continue;
    else name = token.replace(/^fa-/, '');
  }
  if (name === undefined) return undefined;
  const typed = iconType ? STYLE_WORDS[iconType.trim().toLowerCase()] : undefined;
  return { name, sets: SEARCH_ORDER[style ?? typed ?? 'any'] };
}

function lookup(setName: SetName, name: string): ResolvedIcon | undefined {
  const data = set(setName);
  const icon = getIconData(data as IconifyJSON, name);
  if (!icon) return undefined;
  return { set: setName, name, body: icon.body, width: icon.width ?? data.width ?? 16, height: icon.height ?? data.height ?? 16 };
}

const cache = new Map<string, ResolvedIcon | null>();
/** The icon an author's name (and Mintlify `iconType`) draws, or undefined. */
export function resolveIcon(raw: string, iconType?: string): ResolvedIcon | undefined {
  const key = `${raw}\u0000${iconType ?? ''}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit ?? undefined;
  const parsed = parse(raw, iconType);
  let found: ResolvedIcon | undefined;
  if (parsed) {
    const names = [parsed.name, FA_RENAMES[parsed.name]].filter((n): n is string => n !== undefined);
    search: for (const setName of parsed.sets) {
      for (const name of names) {
        found = lookup(setName, name);
        if (found) break search;
      }
    }
  }
  cache.set(key, found ?? null);
  return found;
}

export interface IconOptions {
  iconType?: string | undefined;
  /** CSS length of the icon's height (its width follows the icon's proportions); default `1em`. */
  size?: string | undefined;
  class?: string | undefined;
}

/** The icon as an `<svg>` element (decorative: aria-hidden), or undefined for an unknown name. */
export function iconSvg(raw: string, options: IconOptions = {}): string | undefined {
  const icon = resolveIcon(raw, options.iconType);
  if (!icon) return undefined;
  const { attributes, body } = iconToSVG({ body: icon.body, width: icon.width, height: icon.height }, { height: options.size ?? '1em' });
  const className = ['docs-icon', options.class].filter(Boolean).join(' ');
  return `<svg xmlns="http://www.w3.org/2000/svg" class="${className}" width="${attributes.width}" height="${attributes.height}" viewBox="${attributes.viewBox}" aria-hidden="true" focusable="false" data-icon="${icon.set}:${icon.name}">${body}</svg>`;
}

let allNames: string[] | undefined;
function candidates(): string[] {
  if (!allNames) {
    const names = new Set<string>(Object.keys(FA_RENAMES));
    for (const setName of Object.keys(SET_LABELS) as SetName[]) {
      const data = set(setName);
      for (const name of Object.keys(data.icons)) names.add(name);
      for (const name of Object.keys(data.aliases ?? {})) names.add(name);
    }
    allNames = [...names];
  }
  return allNames;
}

/** Up to three known names close to `name`. */
export function suggestIcons(name: string): string[] {
  const target = (parse(name, undefined)?.name ?? name).toLowerCase();
  const limit = Math.max(2, Math.floor(target.length / 3));
  return candidates()
    .map((candidate) => ({ candidate, d: distance(target, candidate) }))
    .filter(({ d }) => d <= limit)
    .sort((a, b) => a.d - b.d || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

/** The warning for an icon name that draws nothing (with suggestions), or undefined when it resolves. */
export function iconProblem(raw: string, iconType?: string): string | undefined {
  const messages: string[] = [];
  if (iconType !== undefined && !STYLE_WORDS[iconType.trim().toLowerCase()]) {
    messages.push(`iconType \`${iconType}\` is not one of ${ICON_TYPES.join(', ')}; ignored`);
  }
  if (!resolveIcon(raw, iconType)) {
    const suggestions = suggestIcons(raw);
    messages.push(
      `unknown icon \`${raw}\`: not a Font Awesome 6 (solid, regular, brands) or Lucide icon name, so no icon is shown` +
        (suggestions.length ? `; did you mean ${suggestions.map((s) => `\`${s}\``).join(', ')}?` : ''),
    );
  }
  return messages.length ? messages.join('; ') : undefined;
}

/**
 * The SVG content of an icon drawn on a 24×24 grid with strokes (Lucide), for callers that wrap it in their own
 * stroked 24×24 `<svg>` (the sidebar's NavIcon). Names are resolved as everywhere, in Lucide first.
 */
export function iconPaths(name: string): string | undefined {
  const parsed = parse(name, undefined);
  if (!parsed?.sets.includes('lucide')) return undefined;
  const names = [parsed.name, FA_TO_LUCIDE[parsed.name], FA_RENAMES[parsed.name]].filter((n): n is string => n !== undefined);
  for (const candidate of names) {
    const icon = lookup('lucide', candidate);
    if (icon) return icon.body;
  }
  return undefined;
}

/** Font Awesome names whose Lucide icon is named otherwise (for {@link iconPaths}). */
const FA_TO_LUCIDE: Record<string, string> = {
  message: 'message-square', comment: 'message-circle', 'circle-info': 'info', 'triangle-exclamation': 'triangle-alert', gear: 'settings',
  'file-lines': 'file-text', 'arrow-right-long': 'move-right', 'circle-question': 'circle-help', xmark: 'x', 'magnifying-glass': 'search',
  'pen-to-square': 'square-pen', 'up-right-from-square': 'external-link', 'arrow-up-right-from-square': 'external-link', envelope: 'mail',
};
