import type { UserInfo } from '../../core/contracts/authenticator.js';

/** A user as authentication/v1 UserInfo writes it (empty fields left out, as kube's omitempty does). */
export function userInfoObject(user: UserInfo): Record<string, unknown> {
  return {
    ...(user.username ? { username: user.username } : {}),
    ...(user.uid ? { uid: user.uid } : {}),
    ...(user.groups.length ? { groups: user.groups } : {}),
    ...(user.extra && Object.keys(user.extra).length ? { extra: user.extra } : {}),
  };
}
