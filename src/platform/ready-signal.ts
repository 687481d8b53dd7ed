/**
 * How a platform process tells its supervisor (`seo start`, `seo serve`) that it is up: a message on the IPC
 * channel the supervisor opens, which a process started any other way does not have (then nothing is sent).
 */
export interface ReadyMessage {
  type: 'seo:ready';
  /** The public URL, sent by the API process once it listens. */
  url?: string;
}

export function announceReady(url?: string): void {
  const message: ReadyMessage = url ? { type: 'seo:ready', url } : { type: 'seo:ready' };
  process.send?.(message);
}

export function isReadyMessage(message: unknown): message is ReadyMessage {
  return (message as ReadyMessage | null)?.type === 'seo:ready';
}
