/** A resource of a group, as an EncryptionConfiguration names it ('' is the core group, '*' any). */
export interface GroupResource {
  group: string;
  resource: string;
}

/** kube's schema.ParseGroupResource: `secrets` → core secrets, `widgets.example.com`, `*.` → every core resource. */
export function parseGroupResource(text: string): GroupResource {
  const dot = text.indexOf('.');
  return dot < 0 ? { group: '', resource: text } : { group: text.slice(dot + 1), resource: text.slice(0, dot) };
}

/** How kube names a rule in its messages (grYAMLString): `secrets`, `widgets.example.com`, `*.`, `*.*`. */
export function ruleName(gr: GroupResource): string {
  if (gr.group === '' && gr.resource === '*') return '*.';
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}
