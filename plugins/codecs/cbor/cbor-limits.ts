/** The limits of kube's CBOR decode mode (apimachinery serializer/cbor/internal/modes.Decode). */
export const cborLimits = {
  /** Arrays, maps and nested tags together. */
  maxNestedLevels: 64,
  maxArrayElements: 1024,
  maxMapPairs: 1024,
} as const;

