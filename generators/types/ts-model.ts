/** What `kapi gen types` writes, before it is text: interfaces made of fields with TypeScript type expressions. */
export interface TsField {
  /** The property's JSON name. */
  name: string;
  doc?: string;
  optional: boolean;
  type: string;
}

export interface TsInterface {
  name: string;
  doc?: string;
  fields: TsField[];
  /** Fields beyond those listed are kept (x-kubernetes-preserve-unknown-fields): an index signature. */
  open: boolean;
}
