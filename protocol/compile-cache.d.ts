/** See compile-cache.js. */
export function cachedFile(parts: string[], produce: () => string): string | undefined;
export function cachedText(parts: string[], produce: () => string): string;
export function cacheDir(): string | null;
