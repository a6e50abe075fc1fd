import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * The chromium the browser tests drive, found as a shell finds it (CHROMIUM_PATH, else `chromium` or
 * `chromium-browser` on PATH), the way .ci/run checks for it with `command -v chromium`.
 */
function findChromium(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of ['chromium', 'chromium-browser']) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

export const CHROMIUM = findChromium();
export const HAS_CHROMIUM = CHROMIUM !== undefined;
const MISSING = 'chromium not found on PATH or in CHROMIUM_PATH (Debian: apt-get install -y chromium; .ci/run installs it)';
export const NO_CHROMIUM = `${MISSING}: browser tests skipped`;

// In CI a missing browser is a failure, never a quiet skip of the browser tests.
if (!HAS_CHROMIUM && process.env.CI) throw new Error(`${MISSING}; CI runs every browser test`);

/** Headless chromium that never reaches for the network by itself (this machine is offline); `args` are added. */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...args],
  });
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** axe-core's serious and critical violations on the current page, one readable line per element. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's Content-Security-Policy refuses inline scripts it did not list.
  await page.evaluate(readFileSync(AXE, 'utf8'));
  const violations: AxeViolation[] = await page.evaluate(async () => (await (globalThis as any).axe.run((globalThis as any).document)).violations);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((node) => `${v.impact} ${v.id} (${v.help}; ${v.helpUrl}) at ${node.target.join(' ')}: ${(node.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`));
}

/**
 * A built site needs nothing from another origin: every request to one is refused and handed to `seen` (the test
 * asserts there was none, or exactly the one a click asked for).
 */
export async function refuseOtherOrigins(context: BrowserContext, origin: string, seen: (url: string) => void): Promise<void> {
  await context.route(
    (url) => url.origin !== origin,
    (route) => {
      seen(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
}

/**
 * Records the page's Content-Security-Policy violations in `window.__violations` (read them with
 * {@link policyViolations}). Registered through the DevTools protocol, before the page's own scripts: the page's
 * policy does not apply to it.
 */
export async function recordPolicyViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = globalThis as any;
    w.document.addEventListener('securitypolicyviolation', (event: any) => {
      (w.__violations ??= []).push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
}

/** The policy violations recorded on the current page (see {@link recordPolicyViolations}). */
export function policyViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as any).__violations ?? []);
}
