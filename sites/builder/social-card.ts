import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { crc32, deflateSync } from 'node:zlib';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import satori from 'satori';

/**
 * One generated social preview image (1200×630 PNG): satori draws the card (Inter from @fontsource/inter), resvg
 * (WebAssembly) rasterises it, Node's zlib encodes the PNG. Used on the main thread and in social-worker.ts.
 */

const require = createRequire(import.meta.url);
export const WIDTH = 1200;
export const HEIGHT = 630;

export interface CardInput {
  title: string;
  siteName: string;
  codeHost?: string | undefined;
  /** A data: URI. */
  logo?: string | undefined;
  accent: string;
}

let wasm: Promise<void> | undefined;
/** resvg's WebAssembly module can be initialised once per process. */
function ensureWasm(): Promise<void> {
  wasm ??= readFile(require.resolve('@resvg/resvg-wasm/index_bg.wasm')).then((bytes) => initWasm(bytes));
  return wasm;
}

let fonts: Promise<{ name: string; data: Buffer; weight: 400 | 700; style: 'normal' }[]> | undefined;
function loadFonts() {
  const file = (weight: number) => require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`);
  fonts ??= Promise.all([400, 700].map(async (weight) => ({ name: 'Inter', data: await readFile(file(weight)), weight: weight as 400 | 700, style: 'normal' as const })));
  return fonts;
}

/**
 * RGBA pixels -> an RGB PNG (the card is opaque). Node's zlib is several times faster than resvg's own PNG
 * encoder (which dominated the time per image) and the files come out smaller.
 */
export function encodePng(rgba: Uint8Array, width: number, height: number): Buffer {
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const row = y * stride; // filter byte 0 (none)
    for (let x = 0, s = y * width * 4, d = row + 1; x < width; x++, s += 4, d += 3) {
      raw[d] = rgba[s]!;
      raw[d + 1] = rgba[s + 1]!;
      raw[d + 2] = rgba[s + 2]!;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

type Node = { type: string; props: Record<string, unknown> };
const h = (type: string, style: Record<string, unknown>, ...children: (Node | string | undefined | false)[]): Node => ({
  type,
  props: { style, children: children.filter((c) => c !== undefined && c !== false) },
});

function card(title: string, siteName: string, codeHost: string | undefined, logo: string | undefined, accent: string): Node {
  return h(
    'div',
    { width: WIDTH, height: HEIGHT, display: 'flex', flexDirection: 'column', justifyContent: 'space-between', padding: 72, background: '#0f1115', color: '#f3f4f6', fontFamily: 'Inter', borderTop: `12px solid ${accent}` },
    h(
      'div',
      { display: 'flex', alignItems: 'center', gap: 24 },
      logo ? { type: 'img', props: { src: logo, height: 64, style: { height: 64, objectFit: 'contain' } } } : undefined,
      h('div', { fontSize: 36, fontWeight: 700, color: '#d1d5db' }, siteName),
    ),
    h('div', { display: 'flex', fontSize: title.length > 60 ? 56 : 72, fontWeight: 700, lineHeight: 1.15, maxHeight: 340, overflow: 'hidden' }, title),
    h('div', { display: 'flex', fontSize: 30, color: '#9ca3af' }, codeHost ?? ''),
  );
}


/**
 * The card's PNG. A logo the renderer cannot read (a `logo.png` that is not an image) is left out, as a remote one
 * is: a broken file in the docs folder must not stop a build nor leave pages without an image.
 */
export async function renderCard(input: CardInput): Promise<Buffer> {
  await ensureWasm();
  const fonts = await loadFonts();
  const draw = async (logo: string | undefined) => {
    const svg = await satori(card(input.title, input.siteName, input.codeHost, logo, input.accent) as never, { width: WIDTH, height: HEIGHT, fonts });
    return new Resvg(svg, { fitTo: { mode: 'width', value: WIDTH } }).render();
  };
  const image = await draw(input.logo).catch((error: unknown) => (input.logo ? draw(undefined) : Promise.reject(error)));
  return encodePng(image.pixels, image.width, image.height);
}
