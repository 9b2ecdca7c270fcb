/** One etcd (single member) for the tests of a file. */
import test from 'ava';
import { startEtcd, type EtcdCluster } from './etcd-process.js';

/**
 * Starts an etcd before the file's tests (a serial `before` hook: call it before the file's other hooks) and stops it
 * after them. Use the returned function inside tests and hooks: `etcd().endpoints`.
 */
export function useEtcd(): () => EtcdCluster {
  let etcd: EtcdCluster | undefined;
  test.serial.before(async () => {
    etcd = await startEtcd();
  });
  test.after.always(async () => {
    await etcd?.close();
  });
  return () => {
    if (!etcd) throw new Error('etcd is not started (call useEtcd() at the top level of the test file)');
    return etcd;
  };
}
