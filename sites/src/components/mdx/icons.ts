/**
 * A small built-in icon set (24×24, stroked with currentColor), drawn for this project: no icon font, no CDN.
 * Card `icon` names resolve here; unknown names render no icon.
 */
const ICONS: Record<string, string> = {
  note: '<path d="M4 20h4L19 9l-4-4L4 16z"/><path d="m13.5 6.5 4 4"/>',
  info: '<circle cx="12" cy="12" r="9"/><path d="M12 11v6"/><path d="M12 7.5v.01"/>',
  tip: '<path d="M9 18h6"/><path d="M10 21h4"/><path d="M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2v.1h5v-.1c0-.8.4-1.5 1-2A6 6 0 0 0 12 3z"/>',
  warning: '<path d="M12 3 2 20h20z"/><path d="M12 10v4"/><path d="M12 17v.01"/>',
  danger: '<path d="M8 3h8l5 5v8l-5 5H8l-5-5V8z"/><path d="M12 8v5"/><path d="M12 16v.01"/>',
  book: '<path d="M4 19V5a2 2 0 0 1 2-2h14v14H6a2 2 0 0 0 0 4h14"/>',
  code: '<path d="m8 7-5 5 5 5"/><path d="m16 7 5 5-5 5"/>',
  terminal: '<rect x="3" y="4" width="18" height="16" rx="2"/><path d="m7 9 3 3-3 3"/><path d="M13 15h4"/>',
  rocket: '<path d="M12 15 9 12c1-5 4-8 10-9-1 6-4 9-7 12z"/><path d="M9 12H5l2-4h5"/><path d="M12 15v4l4-2v-5"/><path d="M6 16c-1.5 1-2 3-2 4 1 0 3-.5 4-2"/>',
  settings: '<circle cx="12" cy="12" r="3"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9 7 7M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1"/>',
  link: '<path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1"/><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"/>',
  star: '<path d="m12 3 2.8 5.7 6.2.9-4.5 4.4 1.1 6.2-5.6-3-5.6 3 1.1-6.2L3 9.6l6.2-.9z"/>',
  bolt: '<path d="M13 2 4 14h7l-1 8 9-12h-7z"/>',
  file: '<path d="M14 3H6v18h12V7z"/><path d="M14 3v4h4"/>',
  globe: '<circle cx="12" cy="12" r="9"/><path d="M3 12h18"/><path d="M12 3a14 14 0 0 1 0 18 14 14 0 0 1 0-18"/>',
  lock: '<rect x="5" y="11" width="14" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/>',
  key: '<circle cx="8" cy="15" r="4"/><path d="m11 12 9-9"/><path d="m17 6 3 3"/>',
  user: '<circle cx="12" cy="8" r="4"/><path d="M4 21a8 8 0 0 1 16 0"/>',
  database: '<ellipse cx="12" cy="5" rx="8" ry="3"/><path d="M4 5v14c0 1.7 3.6 3 8 3s8-1.3 8-3V5"/><path d="M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3"/>',
  cloud: '<path d="M7 18a5 5 0 0 1-.9-9.9A6 6 0 0 1 17.7 9a4.5 4.5 0 0 1-.2 9z"/>',
  home: '<path d="m3 11 9-8 9 8"/><path d="M5 10v10h14V10"/>',
  message: '<path d="M4 5h16v11H9l-5 4z"/>',
  check: '<path d="m5 12 5 5 9-10"/>',
  'arrow-right': '<path d="M5 12h14"/><path d="m13 6 6 6-6 6"/>',
};

const ALIASES: Record<string, string> = {
  pencil: 'note', 'circle-info': 'info', lightbulb: 'tip', bulb: 'tip', 'triangle-exclamation': 'warning',
  alert: 'warning', 'octagon-exclamation': 'danger', 'book-open': 'book', gear: 'settings', cog: 'settings',
  zap: 'bolt', lightning: 'bolt', 'file-lines': 'file', 'file-text': 'file', earth: 'globe', chat: 'message',
  comment: 'message', 'arrow-right-long': 'arrow-right', 'circle-check': 'check', house: 'home',
};

/** The SVG body of a built-in icon, or undefined for an unknown name. */
export function iconPaths(name: string): string | undefined {
  const key = name.trim().toLowerCase();
  return ICONS[key] ?? ICONS[ALIASES[key] ?? ''];
}

export const ICON_NAMES: readonly string[] = Object.keys(ICONS);
