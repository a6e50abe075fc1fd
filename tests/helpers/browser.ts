import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (`apt-get install -y chromium`; .ci/run installs it); browser tests skip without it. */
export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
export const NO_CHROMIUM = `${CHROMIUM} not found (Debian: apt-get install -y chromium; CI installs it): browser tests skipped`;

/** Headless chromium that never reaches for the network by itself (this machine is offline). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
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
  await page.addScriptTag({ path: AXE });
  const violations: AxeViolation[] = await page.evaluate(async () => (await (globalThis as any).axe.run((globalThis as any).document)).violations);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((node) => `${v.impact} ${v.id} (${v.help}; ${v.helpUrl}) at ${node.target.join(' ')}: ${(node.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`));
}
