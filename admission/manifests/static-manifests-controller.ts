import type { Controller } from '../../core/contracts/controller.js';
import type { HealthCheck } from '../../core/contracts/health-check.js';
import { followFolder, type FollowedFile } from '../../lib/fs/follow-file.js';
import { loadManifestDirectory } from './manifest-loader.js';
import type { StaticManifestPlugin } from './static-manifest-plugin.js';
import { log } from '../../lib/log/logger.js';

interface Watched {
  plugin: StaticManifestPlugin;
  dir: string;
  /** The hash of the set in force. */
  hash?: string;
  /** Why the files on disk are not in force (the previous set is), until they load. */
  error?: string;
  followed?: FollowedFile;
}

/**
 * The admission objects of the plugins' static manifests directories (KEP-5793): loaded before the server answers
 * (an invalid directory fails the start), then followed — a file event or the periodic poll reloads a directory; a
 * valid set replaces the one in force at once, an invalid one is logged and leaves the previous set in force, and
 * the `admission-manifests` readiness check reports it until the files load.
 */
export class StaticManifestsController implements Controller {
  readonly name = 'admission-static-manifests';
  private readonly watched: Watched[];

  constructor(dirs: { plugin: StaticManifestPlugin; dir: string }[]) {
    this.watched = dirs.map((d) => ({ ...d }));
  }

  async start(): Promise<void> {
    for (const w of this.watched) {
      try {
        this.load(w);
      } catch (err) {
        throw new Error(`admission plugin ${w.plugin.name}: loading static manifests from "${w.dir}": ${(err as Error).message}`);
      }
      w.followed = followFolder(w.dir, () => this.reload(w));
    }
  }

  async stop(): Promise<void> {
    for (const w of this.watched) w.followed?.close();
  }

  /** Readiness: failing while a directory's files do not load (its previous set stays in force). */
  readonly healthCheck: HealthCheck = {
    name: 'admission-manifests',
    readinessOnly: true,
    check: async () => {
      const failing = this.watched.filter((w) => w.error);
      if (failing.length) throw new Error(failing.map((w) => `${w.plugin.name} static manifests in "${w.dir}" not loaded: ${w.error}`).join('; '));
    },
  };

  private load(w: Watched): void {
    const { objects, hash } = loadManifestDirectory(w.dir, w.plugin);
    w.error = undefined;
    if (hash === w.hash) return;
    w.plugin.apply(objects);
    w.hash = hash;
  }

  private reload(w: Watched): void {
    try {
      this.load(w);
    } catch (err) {
      w.error = (err as Error).message;
      log.error(`admission plugin ${w.plugin.name}: static manifests in ${w.dir} not reloaded, the previous ones stay in force: ${w.error}`);
    }
  }
}
