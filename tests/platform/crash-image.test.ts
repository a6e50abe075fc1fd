/**
 * The crash tests' model of a disk after a power cut (server/platform/crash-image.ts): only what a sync made durable
 * is in the image. If the model kept too much, the OS-crash tests in payment-recovery.test.ts would prove nothing.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CrashImage } from '../../server/platform/crash-image.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function setUp() {
  const data = mkdtempSync(join(tmpdir(), 'tp-image-data-'));
  const image = mkdtempSync(join(tmpdir(), 'tp-image-copy-'));
  dirs.push(data, image);
  return { data, image, model: new CrashImage(data, image) };
}

describe('CrashImage: the disk as a power cut leaves it', () => {
  it('a synced file has no name until its directory is synced; then its content as of its last sync', () => {
    const { data, image, model } = setUp();
    writeFileSync(join(data, 'a.log'), 'one\n');
    model.synced(join(data, 'a.log'));
    expect(existsSync(join(image, 'a.log'))).toBe(false);
    model.synced(data);
    expect(readFileSync(join(image, 'a.log'), 'utf8')).toBe('one\n');
    appendFileSync(join(data, 'a.log'), 'two\n'); // written, not synced: lost
    model.synced(data);
    expect(readFileSync(join(image, 'a.log'), 'utf8')).toBe('one\n');
    model.synced(join(data, 'a.log'));
    expect(readFileSync(join(image, 'a.log'), 'utf8')).toBe('one\ntwo\n');
  });

  it('a name whose file was never synced is there, empty', () => {
    const { data, image, model } = setUp();
    writeFileSync(join(data, 'key.json'), 'secret');
    model.synced(data);
    expect(readFileSync(join(image, 'key.json'), 'utf8')).toBe('');
  });

  it('a rename (write, sync, rename, sync the directory) replaces the old file; an unlink is durable once the directory is synced', () => {
    const { data, image, model } = setUp();
    writeFileSync(join(data, 'vm.bin'), 'old');
    model.synced(join(data, 'vm.bin'));
    model.synced(data);
    writeFileSync(join(data, 'vm.bin.tmp'), 'new');
    model.synced(join(data, 'vm.bin.tmp'));
    renameSync(join(data, 'vm.bin.tmp'), join(data, 'vm.bin'));
    expect(readFileSync(join(image, 'vm.bin'), 'utf8')).toBe('old');
    model.synced(data);
    expect(readFileSync(join(image, 'vm.bin'), 'utf8')).toBe('new');
    rmSync(join(data, 'vm.bin'));
    expect(existsSync(join(image, 'vm.bin'))).toBe(true);
    model.synced(data);
    expect(existsSync(join(image, 'vm.bin'))).toBe(false);
  });

  it('an asynchronous sync keeps what the file held when it started, and only once it completes', () => {
    const { data, image, model } = setUp();
    mkdirSync(join(data, 'ledger'));
    writeFileSync(join(data, 'ledger', 'journal.log'), 'a\n');
    model.synced(join(data, 'ledger'));
    const done = model.capture(join(data, 'ledger', 'journal.log'));
    appendFileSync(join(data, 'ledger', 'journal.log'), 'b\n'); // after the sync started
    expect(readFileSync(join(image, 'ledger', 'journal.log'), 'utf8')).toBe('');
    done();
    expect(readFileSync(join(image, 'ledger', 'journal.log'), 'utf8')).toBe('a\n');
  });

  it('files outside DATA_DIR are not modelled', () => {
    const { data, image, model } = setUp();
    model.synced(tmpdir()); // DATA_DIR's parent, as a new PGlite dir's sync reaches it
    model.synced(join(data, '..'));
    expect(readdirSync(image)).toEqual([]);
  });
});
