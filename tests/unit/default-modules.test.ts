import test from 'ava';
import { defaultModules } from '../../index.js';

test("storage 'sqlite' without dataDir is refused with what is missing", (t) => {
  t.throws(() => defaultModules({ storage: 'sqlite' }), { instanceOf: TypeError, message: "storage 'sqlite' needs dataDir, the folder of its kapi.db" });
});
