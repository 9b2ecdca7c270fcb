/**
 * Types that `kapi gen crd` maps to the OpenAPI schemas Go's types give in controller-gen, recognised by their name
 * where a field uses them. Plain `number` becomes `type: number`; these say what TypeScript cannot.
 */

/** A 32-bit integer: `type: integer, format: int32` (Go's int32). */
export type Int32 = number & { readonly __kapiSchema?: 'int32' };

/** A 64-bit integer: `type: integer, format: int64` (Go's int64). */
export type Int64 = number & { readonly __kapiSchema?: 'int64' };

/** An integer or a string, as Go's intstr.IntOrString: `x-kubernetes-int-or-string: true`. */
export type IntOrString = number | string;
