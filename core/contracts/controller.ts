/** A background loop that lives as long as the server (like kube-controller-manager loops inside kube-apiserver). */
export interface Controller {
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}
