/**
 * Asks for a secret (a backup passphrase) on the terminal without showing it; undefined when there is no
 * terminal to ask on (the caller then says which variable to set).
 */
export async function askSecret(question: string): Promise<string | undefined> {
  const input = process.stdin;
  if (!input.isTTY || !process.stderr.isTTY) return undefined;
  process.stderr.write(question);
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  try {
    return await new Promise<string | undefined>((resolve) => {
      let typed = '';
      const onData = (text: string) => {
        for (const character of text) {
          if (character === '\r' || character === '\n') {
            input.off('data', onData);
            resolve(typed);
            return;
          }
          if (character === '\u0003') {
            // Ctrl-C: nothing was asked for after all.
            input.off('data', onData);
            resolve(undefined);
            return;
          }
          if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1);
          else typed += character;
        }
      };
      input.on('data', onData);
    });
  } finally {
    input.setRawMode(false);
    input.pause();
    process.stderr.write('\n');
  }
}
