// time.Parse("2006-01-02", s): the date-only form of OpenAPI's `date` format and CEL's format.date().
import test from 'ava';
import { parseCivilDate } from '../../../../lib/go/civil-date.js';

test('a full-date parses to its year, month and day', (t) => {
  t.deepEqual(parseCivilDate('2024-01-31'), { year: 2024, month: 1, day: 31 });
  t.deepEqual(parseCivilDate('0000-12-31'), { year: 0, month: 12, day: 31 });
  t.deepEqual(parseCivilDate('2024-02-29'), { year: 2024, month: 2, day: 29 });
  t.deepEqual(parseCivilDate('2000-02-29'), { year: 2000, month: 2, day: 29 });
});

test('dates that do not exist are rejected', (t) => {
  for (const s of ['2023-02-29', '1900-02-29', '2024-04-31', '2024-00-10', '2024-13-01', '2024-01-00', '2024-01-32']) t.is(parseCivilDate(s), undefined, s);
});

test('only the exact layout parses: four-digit year, two-digit month and day, nothing around', (t) => {
  for (const s of ['', '2024-1-31', '2024-01-1', '24-01-31', '+2024-01-31', '20240-01-31', '2024-01-31T00:00:00Z', ' 2024-01-31', '2024/01/31', '２０２４-01-31'])
    t.is(parseCivilDate(s), undefined, s);
});
