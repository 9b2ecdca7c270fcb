// Plugins made with defineAdmissionPlugin, typed by the widgets their rules select: the mutating one changes the
// object in place, the validating one refuses with field errors (admissionInvalid), over HTTP.
import test from 'ava';
import { admissionInvalid, defineAdmissionPlugin, fieldErrors, Tokens, type KubeObject, type Module, type StatusCause } from '../../index.js';
import { createNamespace, createWidget, expectStatus, suffix, useTestServer, widget, widgetsPath } from '../helpers/test-server.js';

interface Widget extends KubeObject {
  spec?: { color?: string; replicas?: number };
}
const widgets = [{ apiGroups: ['example.com'], resources: ['widgets'] }];

const defaultColor = defineAdmissionPlugin<Widget>({
  name: 'DefaultColor',
  operations: ['CREATE'],
  rules: widgets,
  sideEffects: 'None',
  admit({ object }) {
    object.spec = { ...object.spec, color: object.spec?.color ?? 'grey' };
  },
});

const widgetRules = defineAdmissionPlugin<Widget>({
  name: 'WidgetRules',
  operations: ['CREATE', 'UPDATE'],
  rules: widgets,
  sideEffects: 'None',
  validate(attrs) {
    const { spec } = attrs.object;
    const causes: StatusCause[] = [];
    if (attrs.oldObject && spec?.color !== attrs.oldObject.spec?.color) causes.push(fieldErrors.invalid('spec.color', spec?.color, 'field is immutable'));
    if ((spec?.replicas ?? 0) > 10) causes.push(fieldErrors.invalid('spec.replicas', spec?.replicas, 'must be no more than 10'));
    if (causes.length) throw admissionInvalid(attrs, causes);
  },
});

const plugins: Module = (c) => {
  for (const p of [defaultColor, widgetRules]) c.register(Tokens.AdmissionPlugin, { useValue: p });
};
const server = useTestServer({ storage: 'memory', widgetsCrd: true, modules: [plugins] });

test('a typed mutating plugin changes the object before it is stored', async (t) => {
  const ns = await createNamespace(server, 'typed');
  const res = await server.request('POST', widgetsPath(ns), { body: widget(`w-${suffix()}`, { spec: { replicas: 1 } }) });
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.spec, { replicas: 1, color: 'grey' });
});

test('a typed validating plugin refuses with field errors: kube 422 Invalid, one cause each, nothing stored', async (t) => {
  const ns = await createNamespace(server, 'typed');
  const name = `w-${suffix()}`;
  const created = await createWidget(server, ns, name, { spec: { color: 'red', replicas: 1 } });
  const put = await server.request('PUT', widgetsPath(ns, name), { body: { ...created, spec: { color: 'blue', replicas: 11 } } });
  expectStatus(t, put, {
    code: 422,
    reason: 'Invalid',
    message: `Widget.example.com "${name}" is invalid: [spec.color: Invalid value: "blue": field is immutable, spec.replicas: Invalid value: 11: must be no more than 10]`,
  });
  t.deepEqual(put.body.details, {
    name,
    group: 'example.com',
    kind: 'Widget',
    causes: [
      { reason: 'FieldValueInvalid', message: 'Invalid value: "blue": field is immutable', field: 'spec.color' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: 11: must be no more than 10', field: 'spec.replicas' },
    ],
  });
  t.deepEqual((await server.request('GET', widgetsPath(ns, name))).body.spec, { color: 'red', replicas: 1 });
});
