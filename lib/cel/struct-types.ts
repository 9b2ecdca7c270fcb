/**
 * Message types an environment declares (cel-go's type provider FindStructType / FindStructFieldType / NewValue):
 * `Foo{a: 1}` type-checks against the type's fields and evaluates to what the type constructs.
 */
import type { Type } from './types.js';
import type { Val, Value } from './values.js';

export interface StructType {
  /** The CEL type of the constructed value (an object type named like the message). */
  readonly type: Type;
  /** The declared type of a field, or undefined when the message has no such field. */
  field(name: string): Type | undefined;
  /** The value built from the fields set in the expression (in source order); an error value when it cannot be. */
  construct(fields: ReadonlyMap<string, Value>): Val;
}

/** Resolves a message type name (without a leading dot) to its type, or undefined when it is not declared. */
export type StructTypeResolver = (name: string) => StructType | undefined;
