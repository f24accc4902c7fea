/** The notifications button's name: what its badge counts (documents pending review), in words. */
export function notificationsLabel(pendingReview: number | undefined): string {
  if (pendingReview === undefined) return 'Notifications';
  if (pendingReview === 0) return 'Notifications: no documents awaiting review';
  return `Notifications: ${pendingReview} ${pendingReview === 1 ? 'document' : 'documents'} awaiting review`;
}

/** The badge on the notifications button; null hides it (nothing to review, or not known yet). */
export function notificationsBadgeText(pendingReview: number | undefined): string | null {
  if (pendingReview === undefined || pendingReview <= 0) return null;
  return pendingReview > 999 ? '999+' : String(pendingReview);
}

/** Where the header search goes: the Players screen, searching for the text. */
export function playersSearchHref(text: string): string {
  const search = text.trim();
  return search ? `/players?search=${encodeURIComponent(search)}` : '/players';
}
