/**
 * A real DNS server on 127.0.0.1 (dns2) answering TXT questions from a table the test controls: the stand-in for
 * the DNS a custom domain's owner publishes its challenge in. The service is pointed at it by DOCS_DNS_SERVERS.
 */
import dns2 from 'dns2';

export interface DnsStandIn {
  /** `127.0.0.1:<port>`, for `dnsServers`. */
  server: string;
  /** Publishes (or with `undefined` withdraws) the TXT values of a name. */
  txt(name: string, values: string[] | undefined): void;
  /** Questions asked so far, as `TYPE name`. */
  questions: string[];
  close(): Promise<void>;
}

/** A DNS server on 127.0.0.1: on a free port, or on `port` (to come back where a server already asks, after close()). */
export async function startDnsStandIn(port = 0): Promise<DnsStandIn> {
  const records = new Map<string, string[]>();
  const questions: string[] = [];
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question!.name.toLowerCase();
      questions.push(`${question!.type === Packet.TYPE.TXT ? 'TXT' : question!.type} ${name}`);
      const values = question!.type === Packet.TYPE.TXT ? records.get(name) : undefined;
      if (values) {
        for (const value of values) response.answers.push({ name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data: value } as never);
      } else {
        response.header.rcode = 3; // NXDOMAIN (dns2 exports Packet.RCODE without a type)
      }
      send(response);
    },
  });
  const listening = new Promise<void>((resolve) => server.on('listening', () => resolve()));
  await server.listen({ udp: { port, address: '127.0.0.1' } });
  await listening;
  return {
    server: `127.0.0.1:${(server.addresses().udp as { port: number }).port}`,
    txt(name, values) {
      if (values) records.set(name.toLowerCase(), values);
      else records.delete(name.toLowerCase());
    },
    questions,
    close: () => server.close(),
  };
}
