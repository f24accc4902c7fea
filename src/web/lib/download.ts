/** Starts the browser's download of an object URL that the caller keeps (and revokes) itself. */
export function saveUrlAs(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves a blob under a file name through the browser's download (no server round trip). */
export function saveBlobAs(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  saveUrlAs(url, fileName);
  // Revoked on the next turn: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
