/** A worker thread that renders social images (see social-images.ts): `{ id, input }` in, `{ id, png }` out. */
import { parentPort } from 'node:worker_threads';
import { renderCard, type CardInput } from './social-card.ts';

parentPort?.on('message', async (message: { id: number; input: CardInput }) => {
  try {
    const png = await renderCard(message.input);
    parentPort?.postMessage({ id: message.id, png });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
