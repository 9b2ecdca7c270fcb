/** Maps a position in compiled `dist/**.js` back to its TypeScript source through the emitted `.js.map`. */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SourceLocation {
  /** Relative to the repository root (e.g. `core/server/http-app.ts`). */
  file: string;
  /** 1-based. */
  line: number;
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const maps = new Map<string, SourceMap | null>();

/** `jsPath` absolute; `line` and `column` 0-based as in V8 profiles. Falls back to the JS position. */
export function originalLocation(jsPath: string, line: number, column: number): SourceLocation {
  const map = sourceMapOf(jsPath);
  const entry = map?.findEntry(line, column) as { originalSource?: string; originalLine?: number } | undefined;
  if (entry?.originalSource !== undefined && entry.originalLine !== undefined) {
    const source = entry.originalSource.startsWith('file:') ? fileURLToPath(entry.originalSource) : resolve(dirname(jsPath), entry.originalSource);
    return { file: relative(repoRoot, source), line: entry.originalLine + 1 };
  }
  return { file: relative(repoRoot, jsPath), line: line + 1 };
}

function sourceMapOf(jsPath: string): SourceMap | null {
  let map = maps.get(jsPath);
  if (map === undefined) {
    const mapPath = jsPath + '.map';
    map = existsSync(mapPath) ? new SourceMap(JSON.parse(readFileSync(mapPath, 'utf8')) as SourceMapPayload) : null;
    maps.set(jsPath, map);
  }
  return map;
}

export { repoRoot };
