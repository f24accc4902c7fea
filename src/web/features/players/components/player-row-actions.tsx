import { Link2, LoaderCircle, MoreHorizontal, Send } from 'lucide-react';
import type { TPlayerReportRow } from '../../../../contract';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { getErrorMessage } from '@/lib/api-client';
import { lastFirst } from '@/lib/format';
import { toast } from '@/lib/toast-store';
import { useSendUploadLink } from '../api';
import { sendResultSentence, worksUntil } from '../upload-link-text';
import { useCopyUploadLink } from './upload-link-actions';

/**
 * A row's '⋯' menu on the Players list: Copy upload link and Send link for the row's player in the season the
 * list shows, without opening the player; each answers in a toast.
 */
export function PlayerRowActions({ player, season }: { player: TPlayerReportRow; season: string }) {
  const copyLink = useCopyUploadLink();
  const send = useSendUploadLink();
  const name = lastFirst(player.firstName, player.lastName);
  const busy = copyLink.isPending || send.isPending;

  const onCopy = async () => {
    try {
      const { link, copied } = await copyLink.copy(player.playerId, season);
      toast(
        copied
          ? { title: 'Upload link copied', description: `${player.playerName}’s link is on the clipboard. ${worksUntil(link.expiresAt)}.` }
          : {
              variant: 'destructive',
              title: 'Link made, not copied',
              description: 'This browser did not allow copying. Open the player and use Copy upload link: the link shows there to copy by hand.',
            },
      );
    } catch (error) {
      toast({ variant: 'destructive', title: 'No upload link', description: getErrorMessage(error, 'The link could not be made. Please try again.') });
    }
  };

  const onSend = () =>
    send.mutate(
      { playerId: player.playerId, season },
      {
        onSuccess: (result) => {
          const sentence = sendResultSentence(result);
          toast(sentence.ok ? { title: 'Upload link sent', description: `${sentence.text}.` } : { variant: 'destructive', title: 'Link not sent', description: sentence.text });
        },
        onError: (error) => toast({ variant: 'destructive', title: 'Link not sent', description: getErrorMessage(error, 'The link could not be sent. Please try again.') }),
      },
    );

  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          title="Upload link actions"
          aria-busy={busy}
          data-testid="player-row-actions"
          // The row opens the player on a click: the menu is not part of that.
          onClick={(event) => event.stopPropagation()}
        >
          {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <MoreHorizontal aria-hidden="true" />}
          <span className="sr-only">Upload link actions for {name}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" onClick={(event) => event.stopPropagation()}>
        <DropdownMenuLabel className="max-w-56 truncate text-xs text-muted-foreground">{player.playerName}</DropdownMenuLabel>
        <DropdownMenuItem disabled={busy} onSelect={() => void onCopy()}>
          <Link2 aria-hidden="true" />
          Copy upload link
        </DropdownMenuItem>
        <DropdownMenuItem disabled={busy} onSelect={onSend}>
          <Send aria-hidden="true" />
          Send link
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
