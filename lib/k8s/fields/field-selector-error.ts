/** A field selector that does not parse; the message is kube's 400 text (fields.ParseSelector's). */
export class FieldSelectorError extends Error {
  override readonly name = 'FieldSelectorError';
}
