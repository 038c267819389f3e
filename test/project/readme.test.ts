/**
 * README.md is for users (issue 40): short, with no dates or commit hashes (history goes to
 * CHANGELOG.md, design to docs/), a link to every document, no link that leads nowhere, and
 * every setting a user can give named in it. Each rule is a function of the text, so each is
 * also shown to fail on a README that breaks it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSettingsHelp } from '../../src/config/load-settings.js';
import { receiverSettingsHelp } from '../../src/config/receiver-settings.js';
import { settingsHelp } from '../../src/config/settings.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = join(ROOT, 'README.md');
const MAX_LINES = 300;

/** The same test as `grep -cE '20[0-9]{2}-[0-9]{2}-[0-9]{2}|\b[0-9a-f]{7,40}\b' README.md`. */
const DATE_OR_HASH = /20[0-9]{2}-[0-9]{2}-[0-9]{2}|\b[0-9a-f]{7,40}\b/;

/** Lines outside fenced code blocks. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** Anchors GitHub gives the headings of a Markdown text (lower case, punctuation dropped, spaces to hyphens, repeats numbered). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Targets of the Markdown links of a text that stay inside the repository (no scheme). */
function relativeLinks(text: string): string[] {
  const links: string[] = [];
  for (const line of prose(text)) {
    for (const match of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
    }
  }
  return links;
}

/** Links of the Markdown file `path` (its text `text`) to a file that does not exist, or to a heading its file lacks. */
function brokenLinks(path: string, text: string): string[] {
  const broken: string[] = [];
  for (const link of relativeLinks(text)) {
    const [file, anchor] = link.split('#', 2) as [string, string | undefined];
    const target = file === '' ? path : resolve(dirname(path), decodeURIComponent(file));
    if (!existsSync(target)) {
      broken.push(link);
      continue;
    }
    if (anchor !== undefined && target.endsWith('.md')) {
      const anchors = anchorsOf(target === path ? text : readFileSync(target, 'utf8'));
      if (!anchors.has(anchor)) broken.push(link);
    }
  }
  return broken;
}

/** The documents a README must link: every docs/*.md and CHANGELOG.md, from the project root. */
function documents(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return [...docs, 'CHANGELOG.md'].sort();
}

/** The documents of `documents()` that a README at the project root does not link. */
function unlinkedDocuments(text: string, wanted: readonly string[]): string[] {
  const linked = new Set(relativeLinks(text).map((link) => relative(ROOT, resolve(ROOT, link.split('#')[0]!))));
  return wanted.filter((doc) => !linked.has(doc));
}

/** Setting names not mentioned (as `NAME`, in code) in any of `texts`. */
function undocumentedSettings(names: readonly string[], texts: readonly string[]): string[] {
  return names.filter(
    (name) =>
      !texts.some(
        (text) => text.includes(`\`${name}\``) || new RegExp(`\`[^\`\\n]*\\b${name}\\b[^\`\\n]*\``).test(text),
      ),
  );
}

const readme = readFileSync(README, 'utf8');
const lineCount = readme.endsWith('\n') ? readme.split('\n').length - 1 : readme.split('\n').length;
const userSettings = [...settingsHelp(), ...receiverSettingsHelp()].map((setting) => setting.name);
const loadSettings = loadSettingsHelp().map((setting) => setting.name);

describe('README.md', () => {
  it(`is at most ${MAX_LINES} lines`, () => {
    expect(lineCount).toBeLessThanOrEqual(MAX_LINES);
  });

  it('holds no date and no commit hash: history goes to CHANGELOG.md', () => {
    expect(readme.split('\n').filter((line) => DATE_OR_HASH.test(line))).toEqual([]);
  });

  it('links every document in docs/ and CHANGELOG.md', () => {
    expect(documents()).toContain('CHANGELOG.md');
    expect(unlinkedDocuments(readme, documents())).toEqual([]);
  });

  it('links only files that exist, and only headings they have', () => {
    expect(relativeLinks(readme).length).toBeGreaterThan(0);
    expect(brokenLinks(README, readme)).toEqual([]);
  });

  it('names every setting of certify and of certify receiver; the LOAD_ settings here or in load/README.md', () => {
    expect(userSettings).toContain('SVC_BASE_URL');
    expect(undocumentedSettings(userSettings, [readme])).toEqual([]);
    expect(undocumentedSettings(loadSettings, [readme, readFileSync(join(ROOT, 'load/README.md'), 'utf8')])).toEqual(
      [],
    );
  });
});

describe('the documents README.md links', () => {
  it.each(documents())('%s links only files that exist, and only headings they have', (doc) => {
    const path = join(ROOT, doc);
    expect(brokenLinks(path, readFileSync(path, 'utf8'))).toEqual([]);
  });
});

describe('the README rules, on READMEs that break them', () => {
  it('find a date, a commit hash, and a run of digits such as a phone number', () => {
    const bad = ['Measured on 2026-11-26.', 'Since c66b112, the same.', 'Calls go to +15555550123.'];
    expect(bad.filter((line) => DATE_OR_HASH.test(line))).toEqual(bad);
    expect(DATE_OR_HASH.test('Calls go to a reserved fictional number.')).toBe(false);
  });

  it('find a document left unlinked', () => {
    const withoutChangelog = readme.replace(/\]\(CHANGELOG\.md\)/g, '](nowhere)');
    expect(unlinkedDocuments(withoutChangelog, documents())).toEqual(['CHANGELOG.md']);
  });

  it('find a link to a missing file and to a missing heading, but not inside a code block', () => {
    const text =
      '# Title\n\n[a](docs/none.md) [b](#title) [c](#no-such-heading) [d](docs/proving.md#nothing-here) [e](https://example.test/x)\n\n```\n[f](docs/also-none.md)\n```\n';
    expect(brokenLinks(README, text)).toEqual(['docs/none.md', '#no-such-heading', 'docs/proving.md#nothing-here']);
  });

  it('find a setting the README does not name', () => {
    expect(undocumentedSettings(['SVC_BASE_URL', 'SVC_NOT_A_SETTING'], [readme])).toEqual(['SVC_NOT_A_SETTING']);
  });

  it('give headings the anchors GitHub gives them', () => {
    expect([
      ...anchorsOf(
        "## The capturing receiver's storage\n### No false passes: the fault matrix\n## Settings\n## Settings\n",
      ),
    ]).toEqual(['the-capturing-receivers-storage', 'no-false-passes-the-fault-matrix', 'settings', 'settings-1']);
  });
});
