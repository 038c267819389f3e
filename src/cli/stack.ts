/**
 * A stack trace from the CLI's bundle (src/cli/bundle.ts) told in the sources' lines. Node maps
 * stacks itself only under --enable-source-maps, which slows every run's start; a bug's
 * stack is rare, so its frames are mapped here, when it is printed, from the `.map` files
 * beside the bundle. Frames of other files, and any frame that cannot be mapped, stay as
 * they are.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/** `(file:///…/x.mjs:12:34)` or a bare `file:///…/x.mjs:12:34` at the end of a frame. */
const FRAME_LOCATION = /(file:\/\/[^\s()]+\.mjs):(\d+):(\d+)(\)?)$/;

/** `stack` with each frame in a bundle module replaced by its source's file, line and column. */
export function sourceMappedStack(stack: string): string {
  const maps = new Map<string, SourceMap | undefined>();
  return stack
    .split('\n')
    .map((line) => {
      const found = FRAME_LOCATION.exec(line);
      if (!found) return line;
      const [whole, url = '', lineText, columnText, paren = ''] = found;
      const map = mapOf(url, maps);
      // Stack lines and columns count from 1, a source map's from 0.
      const entry = map?.findEntry(Number(lineText) - 1, Number(columnText) - 1);
      if (!entry || !('originalSource' in entry)) return line;
      const source = entry.originalSource.startsWith('file:')
        ? fileURLToPath(entry.originalSource)
        : entry.originalSource;
      return (
        line.slice(0, line.length - whole.length) +
        `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}${paren}`
      );
    })
    .join('\n');
}

function mapOf(url: string, maps: Map<string, SourceMap | undefined>): SourceMap | undefined {
  if (!maps.has(url)) {
    try {
      const file = fileURLToPath(url);
      const payload = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0] & {
        sources: string[];
        sourceRoot?: string;
      };
      // esbuild writes sources relative to the map's folder.
      const base = new URL('.', url);
      maps.set(
        url,
        new SourceMap({ ...payload, sources: payload.sources.map((source) => new URL(source, base).href) }),
      );
    } catch {
      maps.set(url, undefined);
    }
  }
  return maps.get(url);
}
