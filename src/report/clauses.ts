/**
 * Spec clause text for the HTML report: a check's `clause` ("Authentication > Rotation
 * without downtime, 3; Errors > Rules, 2") resolved against the spec's Markdown
 * (../shared/spec/service-interface.md), read at render time. Unresolvable references
 * stay as they are: the report then shows the reference alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SpecSection {
  /** Heading path, e.g. ["Events", "Retry and replay"]. */
  path: string[];
  /** Stable anchor: spec-events-retry-and-replay. */
  anchor: string;
  /** The section's Markdown below its heading (sub-sections excluded). */
  body: string;
}

export interface ClauseRef {
  /** The reference as written in the catalog. */
  text: string;
  section?: SpecSection;
  /** Numbered items of the section the reference names, with their text. */
  items: Array<{ n: number; text: string }>;
  /** Without items: the section's lines that hold the reference's hint ("Errors (missing_scope)"). */
  lines: string[];
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** The spec's `##` and `###` sections. */
export function parseSpec(markdown: string): SpecSection[] {
  const sections: SpecSection[] = [];
  let h2: string | undefined;
  let current: { path: string[]; lines: string[] } | undefined;
  const flush = () => {
    if (current) sections.push({ path: current.path, anchor: `spec-${slug(current.path.join(' '))}`, body: current.lines.join('\n').trim() });
  };
  for (const line of markdown.split(/\r?\n/)) {
    const heading = /^(#{2,3})\s+(.+?)\s*$/.exec(line);
    if (heading) {
      flush();
      if (heading[1] === '##') h2 = heading[2]!;
      current = { path: heading[1] === '##' || !h2 ? [heading[2]!] : [h2, heading[2]!], lines: [] };
    } else if (current) {
      current.lines.push(line);
    }
  }
  flush();
  return sections;
}

/** Splits on `;` outside parentheses: "Errors (a, 401; shape); Limits" → two references. */
export function splitClause(clause: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < clause.length; i++) {
    const ch = clause[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === ';' && depth === 0) {
      parts.push(clause.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(clause.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** Item numbers a reference names: "2" → [2], "1-2" → [1, 2], "1 and 5" → [1, 5], "rule 3" → [3]. */
export function itemNumbers(text: string): number[] {
  const found = new Set<number>();
  for (const m of text.matchAll(/(\d+)\s*-\s*(\d+)|(\d+)/g)) {
    if (m[1] && m[2]) for (let n = Number(m[1]); n <= Number(m[2]) && n - Number(m[1]) < 20; n++) found.add(n);
    else if (m[3]) found.add(Number(m[3]));
  }
  return [...found];
}

function numberedItems(body: string): Map<number, string> {
  const items = new Map<number, string>();
  for (const line of body.split('\n')) {
    const m = /^(\d+)\.\s+(.*)$/.exec(line.trim());
    if (m && !items.has(Number(m[1]))) items.set(Number(m[1]), m[2]!);
  }
  return items;
}

const sameTitle = (heading: string, wanted: string) => {
  const h = heading.toLowerCase();
  const w = wanted.toLowerCase().trim();
  return h === w || h.startsWith(`${w} `);
};

/** Resolves one reference ("Events > Signature, 2-3", "Errors (missing_scope)", "Session tokens, 2"). */
export function resolveRef(text: string, sections: readonly SpecSection[]): ClauseRef {
  // The path is what precedes the first ',' or '(' ; what follows names items.
  const cut = text.search(/[,(]/);
  const pathText = cut === -1 ? text : text.slice(0, cut);
  const rest = cut === -1 ? '' : text.slice(cut);
  const path = pathText.split('>').map((part) => part.trim()).filter(Boolean);
  let section: SpecSection | undefined;
  let itemsText = rest.startsWith(',') ? rest.slice(1).replace(/\(.*$/s, '') : '';
  for (let length = path.length; length > 0 && !section; length--) {
    const wanted = path.slice(0, length);
    section = sections.find((s) => {
      const tail = s.path.slice(-wanted.length);
      return tail.length === wanted.length && tail.every((part, i) => sameTitle(part, wanted[i]!));
    });
    // "Errors > Rules, 2": no heading "Rules"; the parent section holds the numbered list.
    if (section && length < path.length && !itemsText) itemsText = path.slice(length).join(' ');
  }
  if (!section) return { text, items: [], lines: [] };
  const numbered = numberedItems(section.body);
  const items = itemNumbers(itemsText)
    .filter((n) => numbered.has(n))
    .map((n) => ({ n, text: numbered.get(n)! }));
  return { text, section, items, lines: items.length > 0 ? [] : hintLines(text, section.body) };
}

/** Lines of a section holding the hint in parentheses (its part before ':' or ','), when it is specific enough. */
export function hintLines(text: string, body: string): string[] {
  const hint = /\(([^)]*)\)?/.exec(text)?.[1]?.split(/[:,;]/)[0]?.trim().toLowerCase();
  if (!hint || hint.length < 4) return [];
  return body.split('\n').filter((line) => line.toLowerCase().includes(hint) && line.trim() !== '');
}

export function resolveClause(clause: string, sections: readonly SpecSection[]): ClauseRef[] {
  return splitClause(clause).map((part) => resolveRef(part, sections));
}

/** Where the spec usually is: beside the project (../shared/spec), from the cwd or this file. */
export function defaultSpecPaths(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  return [resolve(process.cwd(), '../shared/spec/service-interface.md'), resolve(here, '../../../shared/spec/service-interface.md')];
}

/** The spec's sections, or undefined when no spec file is readable. */
export function loadSpec(paths: readonly string[] = defaultSpecPaths()): SpecSection[] | undefined {
  for (const path of paths) {
    try {
      if (existsSync(path)) return parseSpec(readFileSync(path, 'utf8'));
    } catch {
      // Unreadable: try the next place, then fall back to the references alone.
    }
  }
  return undefined;
}
