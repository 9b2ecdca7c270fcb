import { CST, Lexer } from 'yaml';

/** The lexer's marker before a scalar's source token (whose text may look like anything, e.g. indentation). */
const scalarMarker = '\x1f';

/**
 * An upper bound of a YAML text's nesting depth, from the lexer alone: open flow collections plus, on each line, the
 * indentation and the block indicators (`-`, `?`, `:`). The yaml parser needs memory and stack per level (a 1.5 MB
 * `[[[…` exhausts the heap), so hostile nesting must be refused before it runs; the lexer is linear and flat.
 */
export function nestingBound(text: string): number {
  let flow = 0;
  let indent = 0;
  let indicators = 0;
  let lineStart = true;
  let max = 0;
  let skipNext = false;
  for (const token of new Lexer().lex(text)) {
    if (skipNext) {
      skipNext = false;
      continue;
    }
    if (token === scalarMarker) {
      skipNext = true;
      lineStart = false;
      continue;
    }
    switch (CST.tokenType(token)) {
      case 'newline':
        indent = 0;
        indicators = 0;
        lineStart = true;
        continue;
      case 'space':
        if (lineStart) indent = token.length;
        break;
      case 'flow-map-start':
      case 'flow-seq-start':
        flow++;
        break;
      case 'flow-map-end':
      case 'flow-seq-end':
        if (flow > 0) flow--;
        break;
      case 'seq-item-ind':
      case 'explicit-key-ind':
      case 'map-value-ind':
        indicators++;
        break;
      default:
        break;
    }
    lineStart = false;
    const bound = flow + indent + indicators;
    if (bound > max) max = bound;
  }
  return max;
}
