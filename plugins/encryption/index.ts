export { encryptionAtRest, type EncryptionAtRestOptions } from './encryption-module.js';
