import type { Context } from 'koa';
import { runeCount, truncateRunes } from '../../lib/go/runes.js';
import { warningHeaderValue } from './warning-header.js';

// kube's limits (k8s.io/apiserver WithWarningRecorder): once the texts sent pass 4 KiB runes, every warning is cut
// to 256 runes, those already sent too, and what comes after the total is passed again is dropped.
const TOTAL_RUNES = 4 * 1024;
const ITEM_RUNES = 256;
// kapi's own guard on top of kube's: the Warning header lines stay within 8 KiB, so that clients with Node's 16 KiB
// header limit can always read the answer (4 Ki runes can take 16 KiB of UTF-8, or of one-rune warnings' framing).
const MAX_HEADER_BYTES = 8 * 1024;
const LINE_FRAMING_BYTES = 'Warning: \r\n'.length;

/**
 * The warnings of one request, sent as kube's warning recorder sends them: one `Warning: 299 - "<text>"` header each,
 * a text already recorded is not repeated (a write retried after a conflict admits its object again), and the block
 * is bounded as above. Recording a warning costs time in its own size only.
 */
class WarningRecorder {
  private readonly recorded = new Set<string>();
  /** Texts recorded before truncation started, to send again cut to ITEM_RUNES when it does. */
  private readonly ordered: string[] = [];
  private readonly headers: string[] = [];
  private runes = 0;
  private bytes = 0;
  private truncating = false;

  constructor(private readonly ctx: Context) {}

  add(text: string): void {
    if (text === '' || (this.truncating && this.runes >= TOTAL_RUNES) || this.recorded.has(text)) return;
    this.recorded.add(text);
    if (!this.truncating) this.ordered.push(text);
    let length = runeCount(text, TOTAL_RUNES);
    let sent = text;
    if (this.truncating && length > ITEM_RUNES) {
      sent = truncateRunes(text, ITEM_RUNES);
      length = ITEM_RUNES;
    }
    const value = warningHeaderValue(sent);
    if (value === undefined) return;
    if (this.truncating || this.runes + length <= TOTAL_RUNES) this.write(value, length);
    else this.startTruncating();
  }

  /** Sends again every text recorded so far (this one included), cut to ITEM_RUNES, in the order recorded. */
  private startTruncating(): void {
    this.truncating = true;
    this.runes = 0;
    this.bytes = 0;
    this.headers.length = 0;
    this.ctx.remove('Warning');
    for (const text of this.ordered) {
      const value = warningHeaderValue(truncateRunes(text, ITEM_RUNES));
      if (value !== undefined) this.write(value, Math.min(runeCount(text, ITEM_RUNES), ITEM_RUNES));
    }
    this.ordered.length = 0;
  }

  private write(value: string, runes: number): void {
    const lineBytes = value.length + LINE_FRAMING_BYTES;
    if (this.bytes + lineBytes > MAX_HEADER_BYTES) return;
    this.runes += runes;
    this.bytes += lineBytes;
    this.headers.push(value);
    this.ctx.set('Warning', this.headers);
  }
}

const recorders = new WeakMap<Context, WarningRecorder>();

/** Records warnings for the client of a request (see WarningRecorder): every warning kapi sends goes through here. */
export function addWarnings(ctx: Context, warnings: readonly string[]): void {
  let recorder = recorders.get(ctx);
  if (!recorder) recorders.set(ctx, (recorder = new WarningRecorder(ctx)));
  for (const text of warnings) recorder.add(text);
}
