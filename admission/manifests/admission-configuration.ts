import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import YAML from 'yaml';
import type { StaticManifestPlugin } from './static-manifest-plugin.js';

/** What kapi takes from one plugin's configuration. */
export interface PluginSettings {
  /** Absolute; the plugin's objects are loaded from its files. */
  staticManifestsDir?: string;
}

/** The versions of AdmissionConfiguration kube-apiserver decodes (v1, and the legacy v1alpha1 of apiserver.k8s.io). */
const admissionConfigurationVersions = new Set(['apiserver.config.k8s.io/v1', 'apiserver.k8s.io/v1alpha1']);

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function parseYaml(text: string, what: string): unknown {
  const doc = YAML.parseDocument(text, { uniqueKeys: false, logLevel: 'silent' });
  if (doc.errors.length) throw new Error(`${what}: ${doc.errors[0].message}`);
  return doc.toJS();
}

/** Reads a file, its error worded as kube words it. */
function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`unable to read ${what} from "${path}" [${(err as Error).message}]`);
  }
}

/** kube's decoding errors for an object whose apiVersion/kind is not one expected. */
function kindError(obj: unknown): string | undefined {
  if (!isObject(obj) || typeof obj.kind !== 'string' || obj.kind === '') return "Object 'Kind' is missing";
  if (typeof obj.apiVersion !== 'string' || obj.apiVersion === '') return "Object 'apiVersion' is missing";
  return undefined;
}

/**
 * kube's check of a `staticManifestsDir` (manifest.ValidateStaticManifestsDir): an absolute path of a directory that
 * exists.
 */
function checkStaticManifestsDir(dir: string): void {
  const invalid = (why: string) => new Error(`staticManifestsDir: Invalid value: ${JSON.stringify(dir)}: ${why}`);
  if (!isAbsolute(dir)) throw invalid('must be an absolute file path');
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (err) {
    throw invalid(`unable to read: ${(err as Error).message}`);
  }
  if (!isDir) throw invalid('must be a directory');
}

/**
 * A plugin's configuration object, decoded as the plugin's loader decodes it: one of its configuration kinds, no field
 * kapi does not know (kube's policy configurations decode strictly; a webhook's kubeConfigFile, for credentials to call
 * webhooks with, is refused: kapi calls webhooks without client credentials).
 */
function pluginSettings(plugin: StaticManifestPlugin, config: unknown): PluginSettings {
  const missing = kindError(config);
  if (missing) throw new Error(missing);
  const { apiVersion, kind, ...fields } = config as Json;
  if (!plugin.configurationKinds[apiVersion as string]?.includes(kind as string)) {
    throw new Error(`unexpected type: no kind "${String(kind)}" is registered for version "${String(apiVersion)}" among the configuration kinds of ${plugin.name}`);
  }
  const settings: PluginSettings = {};
  for (const [field, value] of Object.entries(fields)) {
    if (field === 'staticManifestsDir') {
      if (typeof value !== 'string') throw new Error('staticManifestsDir: must be a string');
      if (value === '') continue;
      checkStaticManifestsDir(value);
      settings.staticManifestsDir = value;
    } else if (field === 'kubeConfigFile') {
      if (value === '' || value === null) continue;
      throw new Error(`kubeConfigFile: kapi calls webhooks without client credentials and does not read a kubeconfig for them`);
    } else {
      throw new Error(`strict decoding error: unknown field "${field}"`);
    }
  }
  return settings;
}

/**
 * Reads kube-apiserver's `--admission-control-config-file`: an `AdmissionConfiguration` whose `plugins` give each
 * plugin's configuration inline (`configuration`) or in a file (`path`, relative to this file). Only plugins kapi
 * configures this way may be named (`plugins`); anything else is a startup error naming the file.
 */
export function readAdmissionConfiguration(file: string, plugins: readonly StaticManifestPlugin[]): Map<string, PluginSettings> {
  const fail = (why: string) => new Error(`admission control configuration "${file}": ${why}`);
  const config = parseYaml(readText(file, 'admission control configuration'), `admission control configuration "${file}"`);
  const missing = kindError(config);
  if (missing) throw fail(missing);
  const { apiVersion, kind } = config as Json;
  if (kind !== 'AdmissionConfiguration' || !admissionConfigurationVersions.has(apiVersion as string)) {
    throw fail(`no kind "${String(kind)}" is registered for version "${String(apiVersion)}" (expected AdmissionConfiguration of apiserver.config.k8s.io/v1)`);
  }
  const entries = (config as Json).plugins ?? [];
  if (!Array.isArray(entries)) throw fail('plugins: must be a list');
  const settings = new Map<string, PluginSettings>();
  for (const entry of entries) {
    const name = isObject(entry) && typeof entry.name === 'string' ? entry.name : '';
    const plugin = plugins.find((p) => p.name === name);
    if (!plugin) {
      const known = plugins.map((p) => p.name).join(', ');
      throw fail(`admission plugin "${name}" takes no configuration in kapi (configurable plugins: ${known})`);
    }
    const { configuration, path } = entry as Json;
    let pluginConfig: unknown;
    if (configuration !== undefined && configuration !== null) pluginConfig = configuration;
    else if (typeof path === 'string' && path !== '') {
      const abs = resolve(dirname(file), path);
      pluginConfig = parseYaml(readText(abs, `the configuration of admission plugin ${name}`), `configuration of admission plugin ${name} "${abs}"`);
    } else continue;
    try {
      settings.set(name, pluginSettings(plugin, pluginConfig));
    } catch (err) {
      throw fail(`admission plugin ${name}: ${(err as Error).message}`);
    }
  }
  return settings;
}
