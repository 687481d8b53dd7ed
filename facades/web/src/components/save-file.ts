/** Hands a file made in the page to the browser's download (an object URL on a temporary link). */
export function saveFile(parts: BlobPart[], type: string, filename: string): void {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own reference to the blob once started.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
