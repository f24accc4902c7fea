import type { TUploadLink } from '../../../../contract';
import { useIssueUploadLink } from '../api';

/** Puts text on the clipboard; false where the browser refuses (no permission, not a secure page, an old phone). */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Issues a new upload link for a player and season and tries to copy it: the link, and whether it is on the clipboard. */
export function useCopyUploadLink() {
  const issue = useIssueUploadLink();
  const copy = async (playerId: string, season: string): Promise<{ link: TUploadLink; copied: boolean }> => {
    const link = await issue.mutateAsync({ playerId, season });
    return { link, copied: await copyToClipboard(link.url) };
  };
  return { copy, isPending: issue.isPending, reset: issue.reset };
}
