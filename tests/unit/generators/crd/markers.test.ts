import test from 'ava';
import { GenCrdError, parseMarker } from '../../../../generators/crd/index.js';

const loc = { file: 'types.ts', line: 7, column: 4 };

function fails(t: import('ava').ExecutionContext, line: string, message: string): void {
  const err = t.throws(() => parseMarker(line, loc), { instanceOf: GenCrdError });
  t.is(err?.message, `types.ts:7:4: ${message}`);
}

test('flags, values and arguments as controller-gen writes them', (t) => {
  t.is(parseMarker('+kubebuilder:subresource:status', loc).value, true);
  t.is(parseMarker('+kubebuilder:object:root=true', loc).value, true);
  t.is(parseMarker('+kubebuilder:validation:Minimum=-1.5', loc).value, -1.5);
  t.is(parseMarker('+kubebuilder:validation:MaxLength=12', loc).value, 12);
  t.is(parseMarker('+kubebuilder:validation:Pattern=`^[a-z]+,x$`', loc).value, '^[a-z]+,x$');
  t.is(parseMarker('+kubebuilder:validation:Pattern=^a,b$', loc).value, '^a,b$');
  t.is(parseMarker('+groupName=example.com', loc).value, 'example.com');
  const scale = parseMarker('+kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas', loc);
  t.is(scale.definition.name, 'kubebuilder:subresource:scale');
  t.deepEqual(scale.args, { specpath: '.spec.replicas', statuspath: '.status.replicas' });
});

test('quoted strings keep their commas and escapes; lists are {a,b} or a;b', (t) => {
  const rule = parseMarker('+kubebuilder:validation:XValidation:rule="self.a, self.b == \\"x\\"",message=`a, b`,optionalOldSelf=true', loc);
  t.deepEqual(rule.args, { rule: 'self.a, self.b == "x"', message: 'a, b', optionalOldSelf: true });
  const resource = parseMarker('+kubebuilder:resource:path=widgets,shortName=wd;wdg,categories={all,"ex,amples"}', loc);
  t.deepEqual(resource.args, { path: 'widgets', shortName: ['wd', 'wdg'], categories: ['all', 'ex,amples'] });
  const column = parseMarker('+kubebuilder:printcolumn:name="Age",type=date,JSONPath=".metadata.creationTimestamp",priority=1', loc);
  t.deepEqual(column.args, { name: 'Age', type: 'date', JSONPath: '.metadata.creationTimestamp', priority: 1 });
});

test('Enum entries and default/example values are YAML or JSON literals', (t) => {
  t.deepEqual(parseMarker('+kubebuilder:validation:Enum=TCP;UDP;"a;b"', loc).value, ['TCP', 'UDP', 'a;b']);
  t.deepEqual(parseMarker('+kubebuilder:validation:Enum={1,2}', loc).value, [1, 2]);
  t.is(parseMarker('+kubebuilder:default=1', loc).value, 1);
  t.is(parseMarker('+kubebuilder:default=round', loc).value, 'round');
  t.is(parseMarker('+kubebuilder:default="1"', loc).value, '1');
  t.is(parseMarker('+kubebuilder:default=false', loc).value, false);
  t.deepEqual(parseMarker('+kubebuilder:default={a,b}', loc).value, ['a', 'b']);
  t.deepEqual(parseMarker('+kubebuilder:default={matchLabels: {app: w}}', loc).value, { matchLabels: { app: 'w' } });
  t.deepEqual(parseMarker('+kubebuilder:default={"a": 1, "b": [true]}', loc).value, { a: 1, b: [true] });
  t.deepEqual(parseMarker('+kubebuilder:example=[1, 2]', loc).value, [1, 2]);
});

test('unknown and malformed markers are refused with the marker and the reason', (t) => {
  fails(t, '+kubebuilder:validation:Minimun=1', 'unknown marker +kubebuilder:validation:Minimun');
  fails(t, '+genclient', 'unknown marker +genclient');
  fails(t, '+kubebuilder:validation:Minimum', 'malformed marker +kubebuilder:validation:Minimum: expected +kubebuilder:validation:Minimum=<value>');
  fails(t, '+kubebuilder:validation:MaxLength=ten', 'malformed marker +kubebuilder:validation:MaxLength=ten: "ten" is not an integer');
  fails(t, '+kubebuilder:validation:UniqueItems=yes', 'malformed marker +kubebuilder:validation:UniqueItems=yes: "yes" is not true or false');
  fails(t, '+kubebuilder:subresource:status=true', 'malformed marker +kubebuilder:subresource:status=true: +kubebuilder:subresource:status takes no value');
  fails(t, '+kubebuilder:printcolumn:name=A,type=string', 'malformed marker +kubebuilder:printcolumn:name=A,type=string: missing argument JSONPath');
  fails(t, '+kubebuilder:resource:plural=ws', 'malformed marker +kubebuilder:resource:plural=ws: unknown argument "plural" (known: path, scope, shortName, categories, singular)');
  fails(t, '+kubebuilder:validation:XValidation:rule="self > 0', 'malformed marker +kubebuilder:validation:XValidation:rule="self > 0: unterminated quoted string');
  fails(t, '+kubebuilder:default={a: [}', 'malformed marker +kubebuilder:default={a: [}: "{a: [}" is not a YAML or JSON value');
});
