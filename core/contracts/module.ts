import type { DependencyContainer } from 'tsyringe';

/** A unit of server composition: registers providers under `Tokens` in the server's container. */
export type Module = (container: DependencyContainer) => void;
