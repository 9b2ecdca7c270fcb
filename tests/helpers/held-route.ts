import { Tokens, type Module } from '../../index.js';

/** A non-resource route whose requests stay in progress until the test releases them: a slow request it controls. */
export interface HeldRoute {
  module: Module;
  path: string;
  /** Requests inside the handler now. */
  readonly held: number;
  /** Lets every held request answer 200. */
  releaseAll(): void;
}

export function heldRoute(path = '/held'): HeldRoute {
  const waiting: (() => void)[] = [];
  return {
    path,
    module: (c) => {
      c.register(Tokens.Route, {
        useValue: {
          path,
          async handle(ctx) {
            await new Promise<void>((resolve) => waiting.push(resolve));
            ctx.body = 'released';
          },
        },
      });
    },
    get held() {
      return waiting.length;
    },
    releaseAll() {
      for (const release of waiting.splice(0)) release();
    },
  };
}
