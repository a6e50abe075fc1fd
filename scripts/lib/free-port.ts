import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';

/** A TCP port on 127.0.0.1 free right now, for a process that must be told its port (tests and benches). */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
