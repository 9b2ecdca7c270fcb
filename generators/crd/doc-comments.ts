/**
 * The doc comment of a declaration: the block of `//` lines or `/* … *\/` (JSDoc) comments right above it, with no
 * blank line in between. Its `+` lines are markers, the rest is the description. Comments at the top of a file that
 * are not the first declaration's doc comment (all of them above an import) are the file's header, where
 * `+groupName` and `+versionName` may stand.
 */
import ts from 'typescript';
import { formatLocation, GenCrdError, type SourceLocation } from './gen-crd-error.js';
import { isMarkerLine, parseMarker, type Marker } from './markers.js';

export interface DocComment {
  description: string;
  markers: Marker[];
}

interface CommentLine {
  text: string;
  loc: SourceLocation;
}

export function locationOf(sf: ts.SourceFile, pos: number, file: string): SourceLocation {
  const { line, character } = sf.getLineAndCharacterOfPosition(pos);
  return { file, line: line + 1, column: character + 1 };
}

const blankLineBetween = (text: string, from: number, to: number) => /\n[ \t\r]*\n/.test(text.slice(from, to));

/** The comment ranges in front of `node`, split into the doc block (touching it) and the ones above. */
function commentBlocks(sf: ts.SourceFile, node: ts.Node): { doc: ts.CommentRange[]; above: ts.CommentRange[] } {
  const text = sf.text;
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  let first = ranges.length;
  let end = node.getStart(sf);
  while (first > 0 && !blankLineBetween(text, ranges[first - 1].end, end)) {
    first--;
    end = ranges[first].pos;
  }
  return { doc: ranges.slice(first), above: ranges.slice(0, first) };
}

function commentLines(sf: ts.SourceFile, file: string, range: ts.CommentRange): CommentLine[] {
  const raw = sf.text.slice(range.pos, range.end);
  if (range.kind === ts.SyntaxKind.SingleLineCommentTrivia) {
    return [{ text: raw.slice(2).replace(/^ /, '').trimEnd(), loc: locationOf(sf, range.pos, file) }];
  }
  const body = raw.replace(/^\/\*\*?/, '').replace(/\*\/$/, '');
  const start = range.pos + (raw.startsWith('/**') ? 3 : 2);
  const out: CommentLine[] = [];
  let offset = 0;
  for (const line of body.split('\n')) {
    const text = line.replace(/^\s*\*?/, '').replace(/^ /, '').trimEnd();
    out.push({ text, loc: locationOf(sf, start + offset + (line.length - line.trimStart().length), file) });
    offset += line.length + 1;
  }
  return out;
}

function toDoc(lines: CommentLine[]): DocComment {
  const markers: Marker[] = [];
  const description: string[] = [];
  for (const line of lines) {
    const trimmed = line.text.trim();
    if (isMarkerLine(trimmed)) markers.push(parseMarker(trimmed, line.loc));
    else description.push(line.text);
  }
  while (description.length && description[0].trim() === '') description.shift();
  while (description.length && description[description.length - 1].trim() === '') description.pop();
  return { description: description.join('\n'), markers };
}

/** The doc comment of a declaration or property. */
export function docComment(sf: ts.SourceFile, file: string, node: ts.Node): DocComment {
  return toDoc(commentBlocks(sf, node).doc.flatMap((r) => commentLines(sf, file, r)));
}

/** The markers of the file's header comment; only file markers (`+groupName`, `+versionName`) may stand there. */
export function fileMarkers(sf: ts.SourceFile, file: string): Marker[] {
  const firstStatement = sf.statements[0];
  // Comments above an import are the header whole; above a declaration, all but its own doc comment.
  const ranges =
    firstStatement && !ts.isImportDeclaration(firstStatement) ? commentBlocks(sf, firstStatement).above : ts.getLeadingCommentRanges(sf.text, 0) ?? [];
  const { markers } = toDoc(ranges.flatMap((r) => commentLines(sf, file, r)));
  const misplaced = markers.filter((m) => m.definition.target !== 'package');
  if (misplaced.length) {
    throw new GenCrdError(misplaced.map((m) => `${formatLocation(m.loc)}: marker +${m.definition.name} is in the file's header comment; put it right above the type or field it is for`));
  }
  return markers;
}
