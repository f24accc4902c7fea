import { LoaderCircle, Trash2 } from 'lucide-react';
import type { TUser } from '../../../../contract';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useReturnFocus } from '@/lib/use-return-focus';
import { useDeleteUser } from '../api';
import { userFullName } from '../user-display';

/** Asks before deleting: 'Delete User', 'Are you sure you want to delete {name}? This action cannot be undone.', Cancel and Delete. */
export function DeleteUserDialog({ user, onOpenChange }: { user: TUser | null; onOpenChange: (open: boolean) => void }) {
  const deleteUser = useDeleteUser();
  // Opened from a row's button: Cancel gives focus back to it (after a delete the row, and the button, are gone).
  const returnFocus = useReturnFocus();
  const busy = deleteUser.isPending;
  const name = user ? userFullName(user) : '';

  const confirm = () => {
    if (!user) return;
    deleteUser.mutate(user.id, {
      onSuccess: () => toast({ title: 'User deleted', description: `${name} (${user.email}) was deleted.` }),
      onError: (error) =>
        toast({ variant: 'destructive', title: 'User not deleted', description: getErrorMessage(error, `${name} could not be deleted. Please try again.`) }),
      onSettled: () => onOpenChange(false),
    });
  };

  return (
    <AlertDialog open={user !== null} onOpenChange={(open) => (busy && !open ? undefined : onOpenChange(open))}>
      <AlertDialogContent data-testid="delete-user-dialog" {...returnFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete User</AlertDialogTitle>
          <AlertDialogDescription>Are you sure you want to delete {name}? This action cannot be undone.</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={confirm} disabled={busy}>
            {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Trash2 aria-hidden="true" />}
            Delete
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
