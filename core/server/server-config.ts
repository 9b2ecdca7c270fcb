/** Settings shared by the server's modules. */
export interface ServerConfig {
  /** Largest accepted request body in bytes (kube-apiserver: 3 MiB). */
  maxRequestBodyBytes: number;
  /** Version reported at /version. */
  version: VersionInfo;
}

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

export const defaultServerConfig: ServerConfig = {
  maxRequestBodyBytes: 3 * 1024 * 1024,
  version: {
    major: '1',
    minor: '32',
    gitVersion: 'v1.32.0-kapi.0.1.0',
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '2026-11-21T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'kapi',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  },
};
