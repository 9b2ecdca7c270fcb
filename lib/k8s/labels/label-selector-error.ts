/** A label selector that does not parse or names an invalid key, value or operator; the message is kube's 400 text. */
export class LabelSelectorError extends Error {
  override readonly name = 'LabelSelectorError';
}
