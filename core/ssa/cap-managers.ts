/**
 * At most 10 Update entries (fieldmanager capManagersManager, DefaultMaxUpdateManagers): after an update, the oldest
 * updaters (by time in seconds, then identifier) are merged, per apiVersion, into one `ancient-changes` entry that
 * takes the time of the latest entry merged into it.
 */
import { goCompare } from '../../lib/go/strings.js';
import { timeSeconds } from './managed-fields-entry.js';
import { managerIdentifier, type Managed } from './managed-fields.js';

export const MAX_UPDATE_MANAGERS = 10;
const BUCKET = 'ancient-changes';

export function capUpdateManagers(managed: Managed, max = MAX_UPDATE_MANAGERS): void {
  const { sets, times } = managed;
  const updaters = [...sets].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => timeSeconds(times.get(a)) - timeSeconds(times.get(b)) || goCompare(a, b));
  // As kube does: the first updater seen for a version only marks it; each later one for that version is merged
  // into the version's bucket (created from the first), lowering the count by one.
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i];
    const vs = sets.get(id)!;
    const bucket = managerIdentifier({ manager: BUCKET, operation: 'Update', apiVersion: vs.apiVersion });
    const first = firstOfVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(vs.apiVersion, id);
      continue;
    }
    if (!sets.has(bucket)) {
      sets.set(bucket, sets.get(first)!);
      sets.delete(first);
    }
    sets.set(bucket, { set: vs.set.union(sets.get(bucket)!.set), apiVersion: vs.apiVersion, applied: vs.applied });
    sets.delete(id);
    length--;
    times.set(bucket, times.get(id));
  }
}
