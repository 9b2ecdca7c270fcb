/** A record of a CSV file and the line it starts on (1-based). */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/** A CSV syntax error, with Go's encoding/csv ParseError text ("parse error on line 2, column 5: bare \" in non-quoted field"). */
export class CsvParseError extends Error {
  override readonly name = 'CsvParseError';
}

const bareQuote = 'bare " in non-quoted field';
const extraneousQuote = 'extraneous or missing " in quoted-field';

/**
 * The records of `text` as Go's csv.Reader reads them with its defaults and a variable number of fields: comma
 * separated, `"` quoting (`""` inside quotes is a quote, quoted fields may span lines), `\r\n` read as `\n`, empty
 * lines skipped, no comments, no trimming. Columns in errors are 1-based byte offsets in the line.
 */
export function parseCsv(text: string): CsvRecord[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const records: CsvRecord[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '') continue;
    const start = i;
    const fields: string[] = [];
    let line = lines[i]!;
    let pos = 0;
    for (;;) {
      if (line[pos] !== '"') {
        const end = line.indexOf(',', pos);
        const field = end === -1 ? line.slice(pos) : line.slice(pos, end);
        const quote = field.indexOf('"');
        if (quote !== -1) throw parseError(start, i, line, pos + quote, bareQuote);
        fields.push(field);
        if (end === -1) break;
        pos = end + 1;
        continue;
      }
      // A quoted field, which may continue on the following lines.
      let value = '';
      pos++;
      for (;;) {
        const quote = line.indexOf('"', pos);
        if (quote === -1) {
          value += line.slice(pos);
          if (i + 1 >= lines.length) {
            pos = line.length; // Go takes a quoted field cut short by the end of the file as it is
            break;
          }
          value += '\n';
          line = lines[++i]!;
          pos = 0;
          continue;
        }
        value += line.slice(pos, quote);
        const next = line[quote + 1];
        if (next === '"') {
          value += '"';
          pos = quote + 2;
        } else if (next === ',' || next === undefined) {
          pos = quote + 1;
          break;
        } else {
          throw parseError(start, i, line, quote, extraneousQuote);
        }
      }
      fields.push(value);
      if (line[pos] !== ',') break;
      pos++;
    }
    records.push({ fields, line: start + 1 });
  }
  return records;
}

/** Go's ParseError text for an error at `index` of `line` (0-based line `at`) in a record starting on line `start`. */
function parseError(start: number, at: number, line: string, index: number, what: string): CsvParseError {
  const col = Buffer.byteLength(line.slice(0, index)) + 1;
  const where = `parse error on line ${at + 1}, column ${col}: ${what}`;
  return new CsvParseError(at === start ? where : `record on line ${start + 1}; ${where}`);
}
