import type { ServerRoute } from '../contracts/route.js';
import type { VersionInfo } from '../contracts/server-config.js';
import { randomDelimiter, sendZpage, zpageHeader } from './zpage-text.js';

/**
 * /statusz as kube-apiserver serves it (component-base zpages, 1.32 text form): the process's start, uptime,
 * runtime ("Go version": here Node's), binary version and emulation version (major.minor).
 */
export function statuszRoute(component: string, version: VersionInfo): ServerRoute {
  const started = new Date(Date.now() - process.uptime() * 1000);
  return {
    path: '/statusz',
    handle: (ctx) =>
      sendZpage(ctx, () => {
        const d = randomDelimiter();
        return (
          zpageHeader(`${component} statusz`) +
          `\nStarted${d} ${unixDate(started)}\nUp${d} ${uptime(started)}\nGo version${d} ${version.goVersion}\n` +
          `Binary version${d} ${version.gitVersion.replace(/^v/, '')}\nEmulation version${d} ${version.major}.${version.minor}\n`
        );
      }),
  };
}

const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** Go's time.UnixDate layout ("Mon Jan _2 15:04:05 MST 2006"), in UTC. */
function unixDate(t: Date): string {
  const day = String(t.getUTCDate()).padStart(2, ' ');
  return `${days[t.getUTCDay()]} ${months[t.getUTCMonth()]} ${day} ${two(t.getUTCHours())}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())} UTC ${t.getUTCFullYear()}`;
}

/** kube's uptime: "0 hr 01 min 05 sec". */
function uptime(since: Date): string {
  const s = Math.floor((Date.now() - since.getTime()) / 1000);
  return `${Math.floor(s / 3600)} hr ${two(Math.floor(s / 60) % 60)} min ${two(s % 60)} sec`;
}
