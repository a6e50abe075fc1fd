/** One of `items`, uniformly at random (seed data). */
export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
