/** A background loop that lives as long as the server (like kube-controller-manager loops inside kube-apiserver). */
export interface Controller {
  readonly name: string;
  /**
   * The resources it works on: it is not started when one of them is not served (the server's `runtimeConfig`
   * disabled it), as kube-apiserver runs no post-start hook of a disabled API group.
   */
  readonly resources?: readonly { group: string; resource: string }[];
  start(): Promise<void>;
  stop(): Promise<void>;
}
