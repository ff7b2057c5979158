'use strict';
/**
 * A content-addressed cache of generated code on disk, so work that depends
 * only on source files is done once, not on every start: the JavaScript
 * TypeScript emits for a file (tools/register.js) and the validators ajv
 * generates for the wire schemas (protocol/codec.ts). An entry's name is the
 * SHA-1 of everything its content depends on, so a changed input is a new
 * entry and a stale one is never served.
 *
 * The folder is $PMIX_CONFORMANCE_CACHE, else node_modules/.cache/pmix-conformance
 * in this checkout, else one in the temporary folder. Entries are written to a
 * temporary name and renamed, so concurrent processes never read half a file.
 * With no writable folder, nothing is cached and everything still works.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
let dir; // undefined: not looked for yet; null: none writable

function cacheDir() {
  if (dir !== undefined) return dir;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  for (const candidate of [process.env.PMIX_CONFORMANCE_CACHE, path.join(ROOT, 'node_modules', '.cache', 'pmix-conformance'), path.join(os.tmpdir(), `pmix-conformance-cache-${uid}`)]) {
    if (!candidate) continue;
    try {
      fs.mkdirSync(candidate, { recursive: true });
      fs.accessSync(candidate, fs.constants.W_OK);
      return (dir = candidate);
    } catch {
      // not writable: try the next place
    }
  }
  return (dir = null);
}

/** The entry's key: a digest of every part its content depends on. */
function keyOf(parts) {
  const hash = crypto.createHash('sha1');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}

/** Where the entry for these key parts lives, or undefined when there is no cache folder. */
function entryOf(parts) {
  const folder = cacheDir();
  return folder ? path.join(folder, `${keyOf(parts)}.js`) : undefined;
}

/** Write an entry whole or not at all; false when it could not be written. */
function write(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
    return true;
  } catch {
    fs.rmSync(tmp, { force: true });
    return false;
  }
}

/**
 * The file holding `produce()`'s text for these key parts (produced and
 * written on the first call), or undefined when there is none to be had.
 */
function cachedFile(parts, produce) {
  const file = entryOf(parts);
  if (!file) return undefined;
  if (fs.existsSync(file)) return file;
  return write(file, produce()) ? file : undefined;
}

/** `produce()`'s text, from the cache when there (and put there when not). */
function cachedText(parts, produce) {
  const file = entryOf(parts);
  if (file) {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      // not cached yet
    }
  }
  const text = produce();
  if (file) write(file, text);
  return text;
}

module.exports = { cachedFile, cachedText, cacheDir };
