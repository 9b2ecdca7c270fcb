"""Scenarios run with the official Kubernetes Python client against a kapi server, for tests/e2e/python-client.test.ts.

Usage: python3 client_scenarios.py KUBECONFIG SCENARIO NAMESPACE [ARG]

Each scenario prints one JSON object on stdout: what the client saw, for the test to assert on. A scenario that
cannot finish (a watch that never delivers what it waits for) ends by its watch's timeout_seconds.
"""
import datetime
import json
import sys
import tempfile
import threading
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException
from kubernetes.dynamic import DynamicClient

WATCH_SECONDS = 30
# The change is made this long after the watch's request is sent: while the watch runs.
CHANGE_DELAY_SECONDS = 0.5


def later(action):
    """Runs `action` on a thread after CHANGE_DELAY_SECONDS; join() re-raises nothing, so errors are recorded."""
    errors = []

    def run():
        time.sleep(CHANGE_DELAY_SECONDS)
        try:
            action()
        except Exception as e:  # reported in the scenario's result
            errors.append(repr(e))

    thread = threading.Thread(target=run)
    thread.start()
    return thread, errors


def until_added(stream, watcher, name):
    """The (type, name) of each event until `name` is ADDED (then the watch is stopped)."""
    seen = []
    for event in stream:
        obj = event['object']
        obj_name = obj['metadata']['name'] if isinstance(obj, dict) else obj.metadata.name
        seen.append([event['type'], obj_name, type(obj).__name__])
        if event['type'] == 'ADDED' and obj_name == name:
            watcher.stop()
    return seen


def widget(name):
    return {'apiVersion': 'example.com/v1', 'kind': 'Widget', 'metadata': {'name': name}, 'spec': {'color': 'blue', 'replicas': 1}}


def typed_watch(namespace, _arg):
    """CoreV1Api: list namespaces, then watch.Watch().stream from the list's resourceVersion sees one created meanwhile."""
    core = client.CoreV1Api()
    selector = 'python-e2e=' + namespace
    listed = core.list_namespace(label_selector=selector)
    name = namespace + '-typed'
    body = client.V1Namespace(metadata=client.V1ObjectMeta(name=name, labels={'python-e2e': namespace}))
    thread, errors = later(lambda: core.create_namespace(body))
    watcher = watch.Watch()
    stream = watcher.stream(core.list_namespace, label_selector=selector, resource_version=listed.metadata.resource_version,
                            timeout_seconds=WATCH_SECONDS)
    seen = until_added(stream, watcher, name)
    thread.join()
    return {'listed': [n.metadata.name for n in listed.items], 'events': seen, 'errors': errors}


def dynamic_watch(namespace, _arg):
    """DynamicClient: list widgets, then resource.watch() from the list's resourceVersion sees one created meanwhile."""
    with tempfile.TemporaryDirectory() as cache_dir:
        dynamic = DynamicClient(client.ApiClient(), cache_file=cache_dir + '/discovery.json')
        widgets = dynamic.resources.get(api_version='example.com/v1', kind='Widget')
        listed = widgets.get(namespace=namespace)
        thread, errors = later(lambda: widgets.create(body=widget('dynamic'), namespace=namespace))
        watcher = watch.Watch()
        seen = []
        for event in widgets.watch(namespace=namespace, resource_version=listed.metadata.resourceVersion, timeout=WATCH_SECONDS, watcher=watcher):
            seen.append([event['type'], event['object'].metadata.name, type(event['object']).__name__])
            if event['type'] == 'ADDED' and event['object'].metadata.name == 'dynamic':
                watcher.stop()
        thread.join()
        return {'listed': [w.metadata.name for w in listed.items], 'events': seen, 'errors': errors}


def resume_after_gone(namespace, stale_rv):
    """A watch from a resourceVersion the server no longer has: the client retries once, then raises 410; the
    program does what the client's documentation says: list again and watch from the new list's resourceVersion."""
    custom = client.CustomObjectsApi()
    args = ('example.com', 'v1', namespace, 'widgets')
    gone = None
    try:
        # No timeout_seconds: the client's own retry after a 410 is disabled when one is given.
        for event in watch.Watch().stream(custom.list_namespaced_custom_object, *args, resource_version=stale_rv):
            return {'unexpected': event['type']}
    except ApiException as e:
        gone = {'status': e.status, 'reason': e.reason}
    listed = custom.list_namespaced_custom_object(*args)
    thread, errors = later(lambda: custom.create_namespaced_custom_object(*args, widget('resumed')))
    watcher = watch.Watch()
    stream = watcher.stream(custom.list_namespaced_custom_object, *args, resource_version=listed['metadata']['resourceVersion'],
                            timeout_seconds=WATCH_SECONDS)
    seen = until_added(stream, watcher, 'resumed')
    thread.join()
    return {'gone': gone, 'listed': [w['metadata']['name'] for w in listed['items']], 'events': seen, 'errors': errors}


def api_errors(namespace, _arg):
    """Failures as ApiException: the HTTP status, and the Status body the client leaves in `body`."""
    core = client.CoreV1Api()
    custom = client.CustomObjectsApi()
    args = ('example.com', 'v1', namespace, 'widgets')
    calls = {
        'not found': lambda: core.read_namespace('python-e2e-missing'),
        'already exists': lambda: core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=namespace))),
        'invalid': lambda: custom.create_namespaced_custom_object(
            *args, {'apiVersion': 'example.com/v1', 'kind': 'Widget', 'metadata': {'name': 'bad'}, 'spec': {'replicas': -2}}),
    }
    out = {}
    for what, call in calls.items():
        try:
            call()
            out[what] = {'raised': False}
        except ApiException as e:
            out[what] = {'raised': True, 'status': e.status, 'body': json.loads(e.body)}
    return out


def leases_and_events(namespace, _arg):
    """CoordinationV1Api: a Lease with MicroTimes, a stale update refused; CoreV1Api and EventsV1Api: one Event, both views."""
    coordination = client.CoordinationV1Api()
    renew = datetime.datetime(2026, 1, 2, 3, 4, 5, 123456, tzinfo=datetime.timezone.utc)
    lease = coordination.create_namespaced_lease(namespace, client.V1Lease(
        metadata=client.V1ObjectMeta(name='leader'),
        spec=client.V1LeaseSpec(holder_identity='py-a', lease_duration_seconds=10, acquire_time=renew, renew_time=renew, lease_transitions=0)))
    stale = lease.metadata.resource_version
    lease.spec.renew_time = renew + datetime.timedelta(seconds=1)
    renewed = coordination.replace_namespaced_lease('leader', namespace, lease)
    lease.metadata.resource_version = stale
    lease.spec.holder_identity = 'py-b'
    try:
        coordination.replace_namespaced_lease('leader', namespace, lease)
        stale_update = None
    except ApiException as e:
        stale_update = e.status
    core = client.CoreV1Api()
    core.create_namespaced_event(namespace, client.CoreV1Event(
        metadata=client.V1ObjectMeta(name='py-event'),
        involved_object=client.V1ObjectReference(kind='Widget', namespace=namespace, name='w1'),
        reason='Tested', message='from python', type='Normal', count=1,
        source=client.V1EventSource(component='py'), first_timestamp=renew, last_timestamp=renew))
    # A new-style Event through events.k8s.io/v1, read as a core/v1 one (the client cannot read an old-style Event through
    # EventsV1Api: its model refuses the null eventTime kube answers with).
    client.EventsV1Api().create_namespaced_event(namespace, client.EventsV1Event(
        metadata=client.V1ObjectMeta(name='py-modern'), event_time=renew, reporting_controller='example.com/py',
        reporting_instance='py-0', action='Test', reason='Tested', note='from events.k8s.io', type='Normal',
        regarding=client.V1ObjectReference(kind='Widget', namespace=namespace, name='w2')))
    selected = core.list_namespaced_event(namespace, field_selector='involvedObject.kind=Widget')
    legacy = core.read_namespaced_event('py-modern', namespace)
    return {
        'renewTime': renewed.spec.renew_time.isoformat(),
        'holder': renewed.spec.holder_identity,
        'staleUpdate': stale_update,
        'selected': sorted(e.metadata.name for e in selected.items),
        'message': legacy.message,
        'involvedObject': legacy.involved_object.name,
        'reportingComponent': legacy.reporting_component,
        'eventTime': legacy.event_time.isoformat(),
    }


SCENARIOS = {
    'typed-watch': typed_watch,
    'dynamic-watch': dynamic_watch,
    'resume-after-gone': resume_after_gone,
    'errors': api_errors,
    'leases-and-events': leases_and_events,
}


def main():
    kubeconfig, scenario, namespace = sys.argv[1:4]
    arg = sys.argv[4] if len(sys.argv) > 4 else None
    config.load_kube_config(config_file=kubeconfig)
    print(json.dumps(SCENARIOS[scenario](namespace, arg)))


if __name__ == '__main__':
    main()
