import { Resolver } from 'node:dns/promises';

/**
 * The proof that a custom domain is its mapper's: a DNS TXT record only whoever controls the name can publish.
 * `_docs-challenge.<hostname>` must hold `docs-verification=<token>` (the token is the domain's, from the API).
 */
export const challengeName = (hostname: string) => `_docs-challenge.${hostname}`;
export const challengeValue = (token: string) => `docs-verification=${token}`;

/** What a lookup found: the record (true), no such record (false), or no answer at all (DNS down: decide nothing). */
export type ChallengeAnswer = boolean | 'unanswered';

export type ChallengeLookup = (hostname: string, token: string) => Promise<ChallengeAnswer>;

/** DNS answers that mean "no such record" rather than "could not ask". */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/** Looks challenges up through `servers` (`ip[:port]`, DOCS_DNS_SERVERS) or the system's resolvers. */
export function dnsChallengeLookup(servers?: string[]): ChallengeLookup {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  if (servers?.length) resolver.setServers(servers);
  return async (hostname, token) => {
    let records: string[][];
    try {
      records = await resolver.resolveTxt(challengeName(hostname));
    } catch (error) {
      return NO_RECORD.has((error as NodeJS.ErrnoException).code ?? '') ? false : 'unanswered';
    }
    // A long TXT value arrives in 255-byte chunks: a record is its chunks joined.
    return records.some((chunks) => chunks.join('') === challengeValue(token));
  };
}
