/**
 * Adds lock-file entries for platform-specific optional packages the registry mirror does not carry
 * (`npm ci` refuses a lock that lacks any optional dependency, even one for another platform). Each entry
 * gets the os/cpu/libc its name says, so npm skips it here, as it would skip the real package.
 *
 *   npm install … && node scripts/lock-optional-platforms.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
type Entry = { version?: string; optionalDependencies?: Record<string, string>; [key: string]: unknown };
const lock = JSON.parse(readFileSync(LOCK, 'utf8')) as { packages: Record<string, Entry> };

const OS: Record<string, string> = { windows: 'win32', win32: 'win32', darwin: 'darwin', linux: 'linux', android: 'android', freebsd: 'freebsd' };
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'wasm32'];

/** os/cpu/libc from a name such as `foo-linux-arm64-musl`, `@scope/win32-x64-msvc`, `pkg-wasm32-wasi`. */
function platformOf(name: string) {
  const parts = name.split('/').pop()!.split('-');
  const os = parts.map((p) => OS[p]).find(Boolean);
  const cpu = parts.find((p) => CPU.includes(p));
  if (!cpu || (!os && cpu !== 'wasm32')) return undefined;
  const libc = os === 'linux' ? (parts.includes('musl') ? 'musl' : parts.includes('gnu') ? 'glibc' : undefined) : undefined;
  return { ...(os ? { os: [os] } : {}), cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    // npm resolves an optional dependency next to its dependent, else at the top level.
    const nested = `${path}/node_modules/${name}`;
    const top = `node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[top]) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    lock.packages[top] = { version, optional: true, ...platform };
    added++;
    console.log(`added ${top}@${version} ${JSON.stringify(platform)}`);
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`${added} entr${added === 1 ? 'y' : 'ies'} added`);
