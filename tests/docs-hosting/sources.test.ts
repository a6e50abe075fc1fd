/**
 * Which git sources may be registered (server/docs-hosting/sources.ts; docs/docs-hosting.md "Registering a
 * repository"): the text of a source, the addresses of its host, and how git is told to reach them. The same rules
 * with git itself and a listener on 127.0.0.1 are in source-network.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { addressProblem, hostOf, isPublicAddress, parseSource, pinnedResolve } from '../../server/docs-hosting/sources.ts';

const problemOf = (source: string, allowLocal = false) => {
  const parsed = parseSource(source, allowLocal);
  return 'problem' in parsed ? parsed.problem : undefined;
};
const hrefOf = (source: string, allowLocal = false) => {
  const parsed = parseSource(source, allowLocal);
  return 'url' in parsed ? parsed.url.href : parsed;
};

const NOT_HTTPS = 'Must be an https:// git URL (local paths only where the server allows them: DOCS_LOCAL_SOURCES=on)';
const NOT_HTTPS_LOCAL = 'Must be an https:// git URL or a local path';
const CONTROL = 'Must not contain control characters';
const SPACE_OR_BACKSLASH = 'Must not contain whitespace or backslashes';
const AT = 'Must not contain @ (no user names or credentials: only public repositories can be registered)';

describe('the text of a source', () => {
  it('accepts https git URLs, handing git the URL as re-serialised', () => {
    expect(hrefOf('https://github.com/acme/widgets.git')).toBe('https://github.com/acme/widgets.git');
    expect(hrefOf('https://GitHub.com:443/acme/widgets')).toBe('https://github.com/acme/widgets');
    expect(hrefOf('https://git.example:8443/a')).toBe('https://git.example:8443/a');
    expect(hrefOf('https://exa%6Dple.com/a')).toBe('https://example.com/a');
    expect(hrefOf('https://bücher.example/a')).toBe('https://xn--bcher-kva.example/a');
    // Numeric IPv4 forms every parser reads alike once written out: git gets the dotted quad that was checked.
    expect(hrefOf('https://2130706433/a')).toBe('https://127.0.0.1/a');
    expect(hrefOf('https://0x7f.1/a')).toBe('https://127.0.0.1/a');
    expect(hrefOf('https://0177.0.0.1/a')).toBe('https://127.0.0.1/a');
    expect(hrefOf('https://[::FFFF:127.0.0.1]/a')).toBe('https://[::ffff:7f00:1]/a');
  });

  it('refuses a backslash, an @ anywhere, whitespace and control characters: what URL parsers read differently', () => {
    for (const source of ['https://github.com\\@127.0.0.1:9443/x', 'https://github.com\\x', 'https://github.com/a\\b', '\\\\127.0.0.1\\x']) {
      expect(problemOf(source), source).toBe(SPACE_OR_BACKSLASH);
    }
    for (const source of ['https://user@github.com/x', 'https://user:secret@github.com/x', 'https://:secret@github.com/x', 'https://github.com@127.0.0.1/x', 'https://github.com/x@127.0.0.1', 'https://github.com/x?@127.0.0.1', 'https://github.com/x#@127.0.0.1', 'https://github.com:@127.0.0.1/']) {
      expect(problemOf(source), source).toBe(AT);
    }
    for (const source of ['https://github.com /x', ' https://github.com/x', 'https://github.com/x ', 'https://github.com\u00a0/x', 'https://github.com\u3000/x', 'https://github.com\u2028/x']) {
      expect(problemOf(source), JSON.stringify(source)).toBe(SPACE_OR_BACKSLASH);
    }
    for (const source of ['https://github.com\t@127.0.0.1/x', 'https://git\thub.com/x', 'https://github.com/x\n', '\nhttps://github.com/x', 'https://github.com\r/x', 'https://github.com\0/x', 'https://github.com\u007f/x', 'https://github.com\u0085/x', 'https://github.com\u009f/x']) {
      expect(problemOf(source), JSON.stringify(source)).toBe(CONTROL);
    }
    // Even where local paths are allowed: a path with a newline or NUL in it is no path anyone meant.
    expect(problemOf('/srv/docs\n/x', true)).toBe(CONTROL);
    expect(problemOf('https://github.com\\@127.0.0.1/x', true)).toBe(SPACE_OR_BACKSLASH);
    expect(problemOf('https://a@127.0.0.1/x', true)).toBe(AT);
  });

  it('refuses what is not an https URL with a host and a path', () => {
    for (const source of ['http://github.com/x', 'git://github.com/x', 'ssh://github.com/x', 'ext::sh -c x', 'file:///srv/docs', '/srv/docs', 'github.com/x', 'https://github.com', 'https://github.com/', 'https:///x', 'https://', '', 'https://exa%2Fmple.com/x', 'https://[::1/x', 'https://github.com:99999/x']) {
      expect(problemOf(source), source).toBe(source.includes(' ') ? SPACE_OR_BACKSLASH : NOT_HTTPS);
    }
    expect(problemOf('http://github.com/x', true)).toBe(NOT_HTTPS_LOCAL);
    expect(problemOf('docs/relative', true)).toBe(NOT_HTTPS_LOCAL);
  });

  it('local paths and file:// URLs only where allowed, as given (spaces and @ are a path\'s own business)', () => {
    for (const source of ['/srv/docs', '/home/me/My Docs@2', 'file:///srv/docs', 'file:///C:\\docs']) {
      expect(parseSource(source, true), source).toEqual({ local: source });
      expect(problemOf(source, false), source).toBeDefined();
    }
  });
});

describe('the addresses of a host', () => {
  it('public IPv4 and IPv6 addresses pass (all of IPv4 was refused before: a BlockList rule for ::ffff:0:0/96 matched every IPv4 address)', () => {
    for (const address of ['8.8.8.8', '140.82.112.3', '1.1.1.1', '11.0.0.1', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.1', '169.253.255.255', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0', '198.17.255.255', '198.20.0.0', '223.255.255.255']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const address of ['2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:830::200e', '2620:1ec:bdf::10', '2001:200::1', '3ffe::1']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('IPv4: loopback, private, link-local, shared, multicast, reserved, documentation and benchmarking ranges fail', () => {
    for (const address of ['0.0.0.0', '0.255.255.255', '10.0.0.1', '10.255.255.255', '100.64.0.1', '100.127.255.255', '127.0.0.1', '127.255.255.254', '169.254.169.254', '172.16.0.1', '172.31.255.255', '192.0.0.1', '192.0.2.1', '192.88.99.1', '192.168.0.1', '192.168.255.255', '198.18.0.1', '198.19.255.255', '198.51.100.1', '203.0.113.1', '224.0.0.1', '239.255.255.255', '240.0.0.1', '255.255.255.255']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('IPv6: unspecified, loopback, link-local, unique local, site-local, multicast, documentation, Teredo, discard, local NAT64 and unassigned space fail', () => {
    for (const address of ['::', '::1', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'fc00::1', 'fd12:3456::1', 'fec0::1', 'ff02::1', 'ff0e::1', '2001:db8::1', '3fff::1', '2001::1', '2001:0:4136:e378::1', '100::1', '64:ff9b:1::a00:1', '4000::1', 'e000::1', '1::1']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('an IPv6 address carrying an IPv4 one (mapped, compatible, SIIT, NAT64, 6to4) is judged by that IPv4 address', () => {
    const carried = (v4: string) => [`::ffff:${v4}`, `::${v4}`, `::ffff:0:${v4}`, `64:ff9b::${v4}`];
    for (const address of carried('127.0.0.1').concat(carried('10.1.2.3'), carried('192.168.1.1'), carried('169.254.169.254'), ['::ffff:7f00:1', '::ffff:0.0.0.0', '2002:7f00:1::1', '2002:a00:1::', '2002:c0a8:101::1'])) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of carried('8.8.8.8').concat(carried('140.82.112.3'), ['::ffff:808:808', '2002:808:808::1'])) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('what is not an address is not public', () => {
    for (const address of ['', 'localhost', 'github.com', '1.2.3', '0x8.8.8.8', '134744072', '010.8.8.8', '::g', '[2606:4700::1111]', '8.8.8.8:443', '256.1.1.1']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('a host needs addresses, all of them public; the problem names the host as written in the URL', () => {
    expect(addressProblem('git.example', ['140.82.112.3', '2606:4700::1111'])).toBeUndefined();
    expect(addressProblem('git.example', [])).toBe('The host git.example cannot be resolved');
    expect(addressProblem('git.example', ['140.82.112.3', '10.0.0.1'])).toBe('The host git.example is not a public address');
    expect(addressProblem('git.example', ['::1', '140.82.112.3'])).toBe('The host git.example is not a public address');
    expect(addressProblem('[::1]', ['::1'])).toBe('The host [::1] is not a public address');
  });
});

describe('how git is told the addresses (http.curloptResolve)', () => {
  const url = (text: string) => new URL(text);

  it('pins a host name and its port to the addresses checked, IPv6 ones in brackets', () => {
    expect(pinnedResolve(url('https://git.example/a'), ['140.82.112.3'])).toBe('git.example:443:140.82.112.3');
    expect(pinnedResolve(url('https://git.example:8443/a'), ['140.82.112.3', '2606:4700::1111'])).toBe('git.example:8443:140.82.112.3,[2606:4700::1111]');
    expect(pinnedResolve(url('https://git.example/a'), ['::ffff:8.8.8.8'])).toBe('git.example:443:[::ffff:8.8.8.8]');
  });

  it('pins nothing for an IP literal: curl looks nothing up for one, and its resolve entry has no room for an IPv6 host', () => {
    expect(pinnedResolve(url('https://140.82.112.3/a'), ['140.82.112.3'])).toBeUndefined();
    expect(pinnedResolve(url('https://[2606:4700::1111]:8443/a'), ['2606:4700::1111'])).toBeUndefined();
  });

  it('a URL host as looked up: an IPv6 literal without brackets', () => {
    expect(hostOf(url('https://[2606:4700::1111]/a'))).toBe('2606:4700::1111');
    expect(hostOf(url('https://git.example/a'))).toBe('git.example');
    expect(hostOf(url('https://8.8.8.8/a'))).toBe('8.8.8.8');
  });
});
