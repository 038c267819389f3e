/**
 * Debian's Chromium driven by playwright-core: no browser download, a fresh profile per
 * launch, nothing that phones home. The page may load file: URLs only; any other request
 * is aborted and recorded, so a test can prove report.html is self-contained.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM)
    ? undefined
    : `${CHROMIUM} is missing: install Debian's chromium (as root: apt-get update && apt-get install -y chromium)`;
}

export interface Browser {
  page: Page;
  /** Requests to anything but file: URLs (all aborted). */
  offPage: string[];
  close(): Promise<void>;
}

export async function openBrowser(viewport = { width: 1400, height: 1000 }): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'report-chromium-'));
  let context: BrowserContext | undefined;
  try {
    // playwright adds --headless (headless: true) and --user-data-dir (the profile) itself.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const offPage: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    offPage.push(url);
    return route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    page,
    offPage,
    close: async () => {
      await context?.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
