/**
 * kube-apiserver's limit on a request's header: Go's http.Server MaxHeaderBytes, 1 MiB, as k8s.io/apiserver sets it.
 * Node's own limits are far lower — 16 KiB of HTTP/1.1 header, at most 2,000 header lines (the rest silently
 * dropped), 128 fields on an HTTP/2 stream (beyond, the stream is reset with ENHANCE_YOUR_CALM) — and refused requests
 * kube serves, such as a user impersonating with a few hundred groups.
 */
const maxHeaderBytes = 1 << 20;

/** HTTP/1.1: Go reads the header up to MaxHeaderBytes plus 4 KiB of buffer slop before answering 431; no line count. */
export const http1HeaderLimits = { maxHeaderSize: maxHeaderBytes + 4096, maxHeadersCount: 0 };

/**
 * HTTP/2: the header list size Go's server announces (MaxHeaderBytes plus the 32-byte overhead of ten typical fields),
 * and as many fields as a list of that size can hold (each field counts 32 bytes besides its name and value).
 */
const maxHeaderListSize = maxHeaderBytes + 10 * 32;
export const http2HeaderLimits = { maxHeaderListSize, maxHeaderListPairs: Math.floor(maxHeaderListSize / 32) };
