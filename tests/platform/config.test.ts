/**
 * The server's configuration from its environment (server/platform/config.ts): the README's defaults, paths
 * resolved once against the working directory, and a clear refusal of a bad value.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/platform/config.ts';

describe('loadConfig', () => {
  it("the README's defaults: port 3000 on every interface, the embedded database and ledger in ./data", () => {
    const config = loadConfig({});
    const data = join(process.cwd(), 'data');
    expect(config).toMatchObject({ port: 3000, host: '0.0.0.0', rateLimits: 'on', logLevel: 'info', commissionBps: 1000, corsOrigins: '*' });
    expect(config.database).toEqual({ kind: 'pglite', dataDir: data, fsync: true }); // commits on disk when acknowledged
    expect(config.ledger).toEqual({ kind: 'embedded', dataDir: join(data, 'ledger') });
    expect(config.docs).toMatchObject({ workDir: join(data, 'docs'), secretFile: join(data, 'docs-secret.key'), allowLocalSources: true });
  });

  it('relative paths are resolved against the working directory once, at load; memory:// stays in memory', () => {
    const config = loadConfig({ DATA_DIR: 'var/tp/', PGLITE_TEMPLATE: 'template.tar', MARKETPLACE_KEYPAIR: '/keys/market.json', DOCS_WORK_DIR: '../docs-work' });
    expect(config.database).toEqual({ kind: 'pglite', dataDir: join(process.cwd(), 'var/tp'), fsync: true, template: join(process.cwd(), 'template.tar') });
    expect(config.docs?.workDir).toBe(join(process.cwd(), '..', 'docs-work'));
    expect(loadConfig({ SOLANA_RPC_URL: 'http://127.0.0.1:8899', MARKETPLACE_KEYPAIR: 'market.json' }).ledger).toMatchObject({ marketplaceKeypair: join(process.cwd(), 'market.json') });
    const memory = loadConfig({ DATA_DIR: 'memory://' });
    expect([memory.database, memory.ledger]).toEqual([{ kind: 'pglite', dataDir: 'memory://', fsync: true }, { kind: 'embedded' }]);
  });

  it('an empty variable is unset; a bad value is refused naming the variable and what it must be', () => {
    expect(loadConfig({ PORT: '', DATA_DIR: '' }).port).toBe(3000);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid configuration: PORT: /);
    expect(loadConfig({ PGLITE_FSYNC: 'off' }).database).toMatchObject({ kind: 'pglite', fsync: false });
    expect(() => loadConfig({ PGLITE_FSYNC: 'sometimes' })).toThrow(/^Invalid configuration: PGLITE_FSYNC: /);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow('Invalid configuration: DATABASE_URL: must be a postgres:// URL');
    expect(() => loadConfig({ SOLANA_RPC_URL: 'http://127.0.0.1:8899' })).toThrow(/MARKETPLACE_KEYPAIR: required with SOLANA_RPC_URL/);
  });

  it('TRUST_PROXY: none by default; addresses, CIDR ranges and proxy-addr\'s names; anything else refused', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,2001:db8::1' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '2001:db8::1']);
    for (const bad of ['my-proxy', '10.0.0.0/33', '300.1.1.1']) expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/^Invalid configuration: TRUST_PROXY: must be comma-separated addresses/);
  });

  it("readers' limits of hosted sites: 20 builds an hour and 120 ref look-ups a minute an address by default", () => {
    expect(loadConfig({}).docs?.readerLimits).toEqual({ buildsPerHour: 20, refLookupsPerMinute: 120 });
    expect(loadConfig({ DOCS_READER_BUILDS_PER_HOUR: '0', DOCS_READER_REF_LOOKUPS_PER_MINUTE: '10' }).docs?.readerLimits).toEqual({ buildsPerHour: 0, refLookupsPerMinute: 10 });
    expect(() => loadConfig({ DOCS_READER_REF_LOOKUPS_PER_MINUTE: '0' })).toThrow(/DOCS_READER_REF_LOOKUPS_PER_MINUTE/);
  });
});
