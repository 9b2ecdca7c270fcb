import test from 'ava';
import { finalizersForDeletion } from '../../../../core/store/deletion-propagation.js';

const hold = 'example.com/hold';

test('the request’s policy sets the one garbage-collector finalizer it needs, keeping the others', (t) => {
  t.deepEqual(finalizersForDeletion([hold], { propagationPolicy: 'Foreground' }), [hold, 'foregroundDeletion']);
  t.deepEqual(finalizersForDeletion([hold], { propagationPolicy: 'Orphan' }), [hold, 'orphan']);
  t.deepEqual(finalizersForDeletion([], { orphanDependents: true }), ['orphan']);
  t.is(finalizersForDeletion([hold], { propagationPolicy: 'Background' }), undefined, 'unchanged');
  t.is(finalizersForDeletion([], {}), undefined);
});

test('a policy asked for replaces the one the object carries; none asked for keeps it', (t) => {
  t.deepEqual(finalizersForDeletion(['foregroundDeletion', hold], { propagationPolicy: 'Orphan' }), [hold, 'orphan']);
  t.deepEqual(finalizersForDeletion(['orphan'], { propagationPolicy: 'Background' }), []);
  t.deepEqual(finalizersForDeletion(['orphan', hold], { orphanDependents: false }), [hold]);
  t.is(finalizersForDeletion(['foregroundDeletion'], {}), undefined);
  t.is(finalizersForDeletion(['orphan', hold], {}), undefined);
  t.is(finalizersForDeletion([hold, 'foregroundDeletion'], { propagationPolicy: 'Foreground' }), undefined, 'same set, other order: unchanged');
});

test('a kind’s default policy applies when neither the request nor the object says (kube’s DefaultGarbageCollectionPolicy)', (t) => {
  t.deepEqual(finalizersForDeletion([], {}, 'OrphanDependents'), ['orphan']);
  t.is(finalizersForDeletion([], { propagationPolicy: 'Background' }, 'OrphanDependents'), undefined);
  t.is(finalizersForDeletion(['foregroundDeletion'], {}, 'OrphanDependents'), undefined, 'the object’s own finalizer wins');
  // A kind that does not support garbage collection (kube's Events) never keeps an object for the collector.
  t.is(finalizersForDeletion([hold], { propagationPolicy: 'Foreground' }, 'Unsupported'), undefined);
  t.deepEqual(finalizersForDeletion(['orphan', hold], { orphanDependents: true }, 'Unsupported'), [hold]);
});
