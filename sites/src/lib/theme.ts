/**
 * Theme colours: `theme.preset` picks a set of CSS variables per mode, `primary`/`primaryLight`/`primaryDark`
 * and `backgroundLight`/`backgroundDark` override it. Text colours derived from the configured colours keep a
 * WCAG AA contrast (4.5:1) whatever the author picked: the accent as configured colours surfaces and borders,
 * `--accent-text` is the accent darkened or lightened just enough to be readable as link text.
 */
import { THEME_PRESETS, type DocsConfig } from '../../config/schema/index.ts';

export interface ModeColors {
  background: string;
  surface: string;
  text: string;
  muted: string;
  border: string;
  accent: string;
}

type Preset = { light: ModeColors; dark: ModeColors };

const neutral = (bgLight: string, surfaceLight: string, borderLight: string, bgDark: string, surfaceDark: string, borderDark: string) => ({
  light: { background: bgLight, surface: surfaceLight, text: '#111827', muted: '#4b5563', border: borderLight },
  dark: { background: bgDark, surface: surfaceDark, text: '#f3f4f6', muted: '#a1a1aa', border: borderDark },
});

/** Each preset of THEME_PRESETS as CSS colours (light and dark). */
export const PRESETS: Record<(typeof THEME_PRESETS)[number], Preset> = {
  default: {
    light: { ...neutral('#ffffff', '#f6f7f9', '#e2e5ea', '#0f1115', '#171a21', '#2a2f3a').light, accent: '#2563eb' },
    dark: { ...neutral('#ffffff', '#f6f7f9', '#e2e5ea', '#0f1115', '#171a21', '#2a2f3a').dark, accent: '#60a5fa' },
  },
  zinc: {
    light: { background: '#ffffff', surface: '#f4f4f5', text: '#18181b', muted: '#52525b', border: '#e4e4e7', accent: '#18181b' },
    dark: { background: '#09090b', surface: '#18181b', text: '#fafafa', muted: '#a1a1aa', border: '#27272a', accent: '#fafafa' },
  },
  slate: {
    light: { background: '#ffffff', surface: '#f1f5f9', text: '#0f172a', muted: '#475569', border: '#e2e8f0', accent: '#334155' },
    dark: { background: '#020617', surface: '#0f172a', text: '#f8fafc', muted: '#94a3b8', border: '#1e293b', accent: '#cbd5e1' },
  },
  ocean: {
    light: { background: '#f8fbff', surface: '#eef5fc', text: '#0b1f33', muted: '#3d556e', border: '#d6e4f2', accent: '#0369a1' },
    dark: { background: '#06141f', surface: '#0c2030', text: '#e6f1fb', muted: '#93aec6', border: '#18344a', accent: '#38bdf8' },
  },
  forest: {
    light: { background: '#fbfdfb', surface: '#f0f6f1', text: '#0f2416', muted: '#45604d', border: '#d9e8dc', accent: '#15803d' },
    dark: { background: '#07130b', surface: '#0e2015', text: '#e8f5ec', muted: '#96b3a0', border: '#1b3524', accent: '#4ade80' },
  },
  sunset: {
    light: { background: '#fffcf9', surface: '#fdf3ea', text: '#2a140a', muted: '#6b4a3a', border: '#f2dfd0', accent: '#c2410c' },
    dark: { background: '#160b06', surface: '#24130b', text: '#fdf0e7', muted: '#c7a592', border: '#3b2216', accent: '#fb923c' },
  },
  violet: {
    light: { background: '#fdfcff', surface: '#f5f2fd', text: '#1c1233', muted: '#574a70', border: '#e6e0f6', accent: '#6d28d9' },
    dark: { background: '#0e0919', surface: '#181127', text: '#f1ecfd', muted: '#aa9cc8', border: '#2a2142', accent: '#a78bfa' },
  },
  rose: {
    light: { background: '#fffbfc', surface: '#fdf1f4', text: '#2b0d15', muted: '#6c4450', border: '#f5dbe2', accent: '#be123c' },
    dark: { background: '#17080c', surface: '#250e15', text: '#fdeef2', muted: '#c99aa7', border: '#3e1a25', accent: '#fb7185' },
  },
};

function rgb(hex: string): [number, number, number] {
  const h = hex.replace('#', '');
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}
function toHex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`;
}
function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}
function mix(a: string, b: string, t: number): string {
  const [p, q] = [rgb(a), rgb(b)];
  return toHex([0, 1, 2].map((i) => p[i]! + (q[i]! - p[i]!) * t) as [number, number, number]);
}
/** `color` moved towards black or white (whichever contrasts with `background`) until it reaches `ratio`. */
export function readable(color: string, background: string, ratio = 4.5): string {
  if (contrast(color, background) >= ratio) return color;
  const target = luminance(background) > 0.4 ? '#000000' : '#ffffff';
  for (let t = 0.05; t <= 1; t += 0.05) {
    const candidate = mix(color, target, t);
    if (contrast(candidate, background) >= ratio) return candidate;
  }
  return target;
}
/** Black or white, whichever reads better on `background`. */
export function onColor(background: string): string {
  return contrast('#ffffff', background) >= contrast('#111111', background) ? '#ffffff' : '#111111';
}

export interface ThemeColors {
  light: ModeColors;
  dark: ModeColors;
}

/** The colours of a site in both modes, configured values over the preset. */
export function themeColors(theme: DocsConfig['theme']): ThemeColors {
  const preset = PRESETS[(theme.preset ?? 'default') as keyof typeof PRESETS] ?? PRESETS.default;
  const mode = (base: ModeColors, accent: string | undefined, background: string | undefined): ModeColors => {
    const bg = background ?? base.background;
    const surface = background ? mix(bg, onColor(bg) === '#ffffff' ? '#ffffff' : '#000000', 0.04) : base.surface;
    return {
      background: bg,
      surface,
      text: readable(base.text, bg, 7),
      muted: readable(readable(base.muted, bg, 4.5), surface, 4.5),
      border: background ? mix(bg, onColor(bg) === '#ffffff' ? '#ffffff' : '#000000', 0.14) : base.border,
      accent: accent ?? base.accent,
    };
  };
  return {
    light: mode(preset.light, theme.primaryLight ?? theme.primary, theme.backgroundLight),
    dark: mode(preset.dark, theme.primaryDark ?? theme.primary, theme.backgroundDark),
  };
}

/**
 * CSS variables (shared with the MDX components): `--docs-primary` is the configured accent as is (call-to-action
 * backgrounds, active markers), `--docs-accent` the same hue adjusted for text contrast (links).
 */
function variables(colors: ModeColors, scheme: 'light' | 'dark'): string {
  return [
    `color-scheme:${scheme}`,
    `--docs-bg:${colors.background}`,
    `--docs-surface:${colors.surface}`,
    `--docs-code-bg:${colors.surface}`,
    `--docs-fg:${colors.text}`,
    `--docs-muted:${colors.muted}`,
    `--docs-border:${colors.border}`,
    `--docs-primary:${colors.accent}`,
    `--docs-primary-contrast:${onColor(colors.accent)}`,
    // 5:1 rather than 4.5:1 leaves room for the lightly tinted boxes (callouts) links sit on.
    `--docs-accent:${readable(readable(colors.accent, colors.background, 5), colors.surface, 4.6)}`,
  ].join(';');
}

/** The site's colour CSS: light by default, dark under `[data-theme=dark]` (and for readers without JavaScript). */
export function themeCss(theme: DocsConfig['theme']): string {
  const colors = themeColors(theme);
  const light = variables(colors.light, 'light');
  const dark = variables(colors.dark, 'dark');
  return `:root{${light}}:root[data-theme=dark]{${dark}}@media (prefers-color-scheme:dark){:root:not([data-theme]){${dark}}}`;
}
