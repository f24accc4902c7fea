/**
 * What went wrong, for the person running a backup or a restore, without what a failed statement carried: a
 * query's error (drizzle's "Failed query: … params: …") quotes the rows it was writing, names and addresses
 * among them. Its cause, the database's own message, names the table or constraint and no value.
 */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (!error.message.startsWith('Failed query:')) return error.message;
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause ? `a database statement failed (${cause})` : 'a database statement failed';
}
