// The round trip of issue #24: `kapi gen crd` on TypeScript types, then `kapi gen types` on the CRD, gives types
// equivalent to the input (tests/helpers/type-equivalence.ts says precisely what that means), version by version,
// checked by the TypeScript compiler on both in one program.
import test from 'ava';
import ts from 'typescript';
import { join } from 'node:path';
import { generateCrds, type GeneratedCrd } from '../../../generators/crd/index.js';
import { generateTypes, type GeneratedFile } from '../../../generators/types/index.js';
import { projectProgram, typesProject } from '../../helpers/generated-types-project.js';
import { removeDir, repoPath } from '../../helpers/kapi-process.js';
import { typeDifferences } from '../../helpers/type-equivalence.js';

interface RoundTrip {
  what: string;
  kind: string;
  group: string;
  /** The input file of each version. */
  versions: Record<string, string>;
  /** The versions that are served, so have generated types. */
  served: string[];
  /** The differences, by version, that the input's markers make on purpose. */
  expected: Record<string, string[]>;
}

const roundTrips: RoundTrip[] = [
  {
    what: 'a test kind with every feature that survives the round trip, in two versions',
    kind: 'Gadget',
    group: 'roundtrip.example.com',
    versions: { v1: 'tests/unit/generators/round-trip/gadget-v1-types.ts', v1beta1: 'tests/unit/generators/round-trip/gadget-v1beta1-types.ts' },
    served: ['v1', 'v1beta1'],
    expected: { v1: [], v1beta1: [] },
  },
  {
    what: "examples/gen-crd's kind, in three versions, one unserved",
    kind: 'Widget',
    group: 'gen.example.com',
    versions: { v1: 'examples/gen-crd/widget-types.ts', v1beta1: 'examples/gen-crd/widget-v1beta1-types.ts', v1alpha1: 'examples/gen-crd/widget-v1alpha1-types.ts' },
    served: ['v1', 'v1beta1'],
    // The example uses every marker; these change what the API accepts, so the type: they do not survive as written.
    expected: {
      v1: [
        'spec.comment: required in the input, optional generated', // +kubebuilder:validation:Optional
        'spec.maker: optional in the input, required generated', // +kubebuilder:validation:Required
        'spec.owner: optional in the input, required generated', // +required
        'spec.paused: required in the input, optional generated', // +optional
        'spec.paused: not nullable in the input, nullable generated', // +nullable
        'spec.ports[].protocol: string in the input, "TCP" | "UDP" generated', // +kubebuilder:validation:Enum
        'spec.target: string in the input, string | number generated', // +kubebuilder:validation:XIntOrString
        'spec.template.apiVersion: optional in the input, required generated', // +kubebuilder:validation:XEmbeddedResource
        'spec.template.kind: optional in the input, required generated', // the same
        'spec.template: an index signature generated only', // +kubebuilder:pruning:PreserveUnknownFields
      ],
      v1beta1: [],
    },
  },
];

// Both kinds go through one `gen crd` and one program: compiling the inputs (which import kapi) is the slow part.
let crds: GeneratedCrd[] = [];
let generated: GeneratedFile[] = [];
let dir = '';
let program: ts.Program;

test.before(() => {
  crds = generateCrds(roundTrips.flatMap((rt) => Object.values(rt.versions).map((f) => repoPath(f))));
  generated = generateTypes(crds.map((c) => ({ file: c.fileName, text: c.yaml })));
  dir = typesProject(Object.fromEntries(generated.map((f) => [f.path, f.text])));
  const inputs = roundTrips.flatMap((rt) => rt.served.map((v) => repoPath(rt.versions[v]!)));
  program = projectProgram(dir, [...generated.map((f) => f.path), ...inputs]);
});

test.after.always(() => {
  if (dir) removeDir(dir);
});

for (const rt of roundTrips) {
  test(`gen crd then gen types gives back equivalent types: ${rt.what}`, (t) => {
    t.deepEqual(
      crds.map((c) => c.crd.spec.names.kind).filter((k) => k === rt.kind),
      [rt.kind],
      'one CRD of the kind',
    );
    const stem = rt.kind.toLowerCase();
    t.deepEqual(
      generated.map((f) => f.path).filter((p) => p.startsWith(`${stem}.`)),
      rt.served.map((v) => `${stem}.${v}.ts`),
      'a file per served version',
    );
    const checker = program.getTypeChecker();
    for (const version of rt.served) {
      const genFile = program.getSourceFile(join(dir, `${stem}.${version}.ts`))!;
      const inFile = program.getSourceFile(repoPath(rt.versions[version]!))!;
      t.deepEqual(
        [genFile, inFile].flatMap((sf) => program.getSemanticDiagnostics(sf)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
        [],
        `${version}: both compile`,
      );
      const differences = typeDifferences(checker, {
        input: rootInterface(inFile, rt.kind),
        generated: rootInterface(genFile, rt.kind),
        apiVersion: `${rt.group}/${version}`,
        kind: rt.kind,
      });
      t.deepEqual(differences, rt.expected[version], `${version}: the differences between ${rt.versions[version]} and the generated ${stem}.${version}.ts`);
    }
  });
}

function rootInterface(sf: ts.SourceFile, kind: string): ts.InterfaceDeclaration {
  const found = sf.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === kind);
  if (!found) throw new Error(`${sf.fileName} declares no interface ${kind}`);
  return found;
}
