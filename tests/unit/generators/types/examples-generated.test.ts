// The examples' generated types are what `kapi gen types` writes today: regenerating them changes nothing.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { generateTypes } from '../../../../generators/types/index.js';
import { repoPath } from '../../../helpers/kapi-process.js';

/** Each example's CRD files and the folder its types are generated into (with `--import-from ../../../index.js`). */
const examples = [{ crds: ['examples/crd-only/widgets-crd.yaml'], output: 'examples/crd-only/generated' }];

for (const { crds, output } of examples) {
  test(`${output} is up to date (kapi gen types ${crds.join(' ')} -o ${output} --import-from ../../../index.js)`, (t) => {
    const generated = generateTypes(
      crds.map((file) => ({ file, text: readFileSync(repoPath(file), 'utf8') })),
      { importFrom: '../../../index.js' },
    );
    t.deepEqual(readdirSync(repoPath(output)).sort(), generated.map((f) => f.path).sort(), 'the generated files');
    for (const f of generated) t.is(readFileSync(repoPath(output, f.path), 'utf8'), f.text, `${output}/${f.path}`);
  });
}
