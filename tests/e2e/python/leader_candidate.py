"""One leader-election candidate: the official Python client's kubernetes.leaderelection with its ConfigMapLock.

Usage: python3 leader_candidate.py KUBECONFIG NAMESPACE LOCK_NAME IDENTITY

Runs until killed. Prints `leading IDENTITY` on stdout (flushed) when its on_started_leading callback runs and
`stopped IDENTITY` when it stops leading; the election's log goes to stderr.
"""
import sys

from kubernetes import config
from kubernetes.leaderelection import electionconfig, leaderelection
from kubernetes.leaderelection.resourcelock.configmaplock import ConfigMapLock

# The shortest durations the module's Config accepts (whole seconds, retry_period >= 1,
# renew_deadline > 1.2 * retry_period, lease_duration > renew_deadline).
LEASE_DURATION = 3
RENEW_DEADLINE = 2
RETRY_PERIOD = 1


def main():
    kubeconfig, namespace, lock_name, identity = sys.argv[1:5]
    config.load_kube_config(config_file=kubeconfig)
    lock = ConfigMapLock(lock_name, namespace, identity)
    election = electionconfig.Config(
        lock,
        lease_duration=LEASE_DURATION,
        renew_deadline=RENEW_DEADLINE,
        retry_period=RETRY_PERIOD,
        onstarted_leading=lambda: print('leading ' + identity, flush=True),
        onstopped_leading=lambda: print('stopped ' + identity, flush=True),
    )
    leaderelection.LeaderElection(election).run()


if __name__ == '__main__':
    main()
