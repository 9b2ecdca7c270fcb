import type { ServerRoute } from '../contracts/route.js';
import { randomDelimiter, sendZpage, zpageHeader } from './zpage-text.js';

/**
 * /flagz as kube-apiserver serves it (component-base zpages): the flags the server was started with and their
 * effective values (ServerConfig.flags), sorted by name, with one delimiter chosen at random for the server's
 * lifetime. As in kube, nothing is redacted: kapi's flags name files, never secrets.
 */
export function flagzRoute(component: string, flags: Readonly<Record<string, string>>): ServerRoute {
  let page: string | undefined;
  return {
    path: '/flagz',
    handle: (ctx) =>
      sendZpage(ctx, () => {
        if (page === undefined) {
          const d = randomDelimiter();
          const lines = Object.keys(flags)
            .sort()
            .map((name) => `${name}${d}${flags[name]}\n`);
          page = `${zpageHeader(`${component} flags`)}\n${lines.join('')}`;
        }
        return page;
      }),
  };
}
