/**
 * The value of kube's `Warning` response header for a text (k8s.io/apimachinery `NewWarningHeader(299, "-", text)`):
 * `299 - "<text>"` with `"` and `\` escaped by a backslash and every other character as is. kube refuses a text that
 * holds a control character (U+0000–U+001F, U+007F–U+009F): such a warning is not sent, so `undefined`.
 *
 * kube writes the text's UTF-8 bytes. Node writes header strings as Latin-1 and throws on characters above U+00FF, so
 * the value is returned as the binary string of those bytes: the client receives exactly kube's bytes.
 */
export function warningHeaderValue(text: string): string | undefined {
  if (CONTROL_CHARACTER.test(text)) return undefined;
  const quoted = text.replace(/["\\]/g, '\\$&');
  return Buffer.from(`299 - "${quoted}"`, 'utf8').toString('latin1');
}

// Go's unicode.IsControl
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
