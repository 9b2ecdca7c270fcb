/**
 * The paths of keys that appear twice in the same JSON object (`spec.replicas`, `spec.items[0].name`), as kube's
 * strict decoder reports them. JSON.parse silently keeps the last one, so the raw text is scanned. Expects text that
 * JSON.parse already accepted.
 */
export function duplicateFields(text: string): string[] {
  type Frame = { kind: 'object'; path: string; keys: Set<string>; expectKey: boolean; lastKey: string } | { kind: 'array'; path: string; index: number };
  const stack: Frame[] = [];
  const found: string[] = [];
  const childPath = (): string => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    if (top.kind === 'array') return `${top.path}[${top.index}]`;
    return top.path ? `${top.path}.${top.lastKey}` : top.lastKey;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    switch (ch) {
      case '{':
        stack.push({ kind: 'object', path: childPath(), keys: new Set(), expectKey: true, lastKey: '' });
        break;
      case '[':
        stack.push({ kind: 'array', path: childPath(), index: 0 });
        break;
      case '}':
      case ']':
        stack.pop();
        break;
      case ',': {
        const top = stack[stack.length - 1];
        if (top?.kind === 'array') top.index++;
        else if (top) top.expectKey = true;
        break;
      }
      case '"': {
        let end = i + 1;
        while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
        const top = stack[stack.length - 1];
        if (top?.kind === 'object' && top.expectKey) {
          const key = JSON.parse(text.slice(i, end + 1)) as string;
          top.lastKey = key;
          top.expectKey = false;
          if (top.keys.has(key)) found.push(top.path ? `${top.path}.${key}` : key);
          top.keys.add(key);
        }
        i = end;
        break;
      }
      default:
        break;
    }
  }
  return found;
}
