import { Download, LoaderCircle, ShieldCheck } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ZTwoFactorConfirm, type TTwoFactorSetup } from '../../../../contract';
import { CopyButton } from '@/components/copy-button';
import { FormError } from '@/components/form-field';
import { LoadError } from '@/components/load-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { saveBlobAs } from '@/lib/download';
import { useEnableTwoFactor, useStartTwoFactorSetup } from '../api';
import { groupSecret, RECOVERY_CODES_FILE_NAME, recoveryCodesText } from '../recovery-codes';

/** Step 1 and 2: scan the QR code (or type the key), then confirm with the first code. */
function ScanAndConfirm({ setup, onEnabled }: { setup: TTwoFactorSetup; onEnabled: (codes: string[]) => void }) {
  const id = useId();
  const enable = useEnableTwoFactor();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = ZTwoFactorConfirm.safeParse({ code: code.replace(/\s/g, '') });
    if (!parsed.success) {
      setError(`${parsed.error.issues[0]?.message ?? 'Enter the 6-digit code'}.`);
      inputRef.current?.focus();
      return;
    }
    setError(null);
    enable.mutate(parsed.data.code, {
      onSuccess: ({ recoveryCodes }) => onEnabled(recoveryCodes),
      onError: (failure) => {
        setError(getErrorMessage(failure, 'That code did not work. Please try again.'));
        inputRef.current?.focus();
      },
    });
  };

  return (
    <div className="flex flex-col gap-5" data-testid="two-factor-scan">
      <ol className="flex list-decimal flex-col gap-4 pl-5 text-sm marker:text-muted-foreground">
        <li>
          Install an authenticator app on your phone if you have none yet (for example Google Authenticator, Microsoft
          Authenticator or 1Password).
        </li>
        <li className="flex flex-col gap-3">
          <span>In the app, add an account and scan this QR code:</span>
          <img
            src={setup.qrCodeDataUrl}
            alt="QR code for two-step sign-in to Clearbase. If you cannot scan it, type the key shown below it into your app."
            width={176}
            height={176}
            className="size-44 rounded-md border bg-white p-2"
          />
          <span className="flex flex-col gap-2">
            <span className="text-muted-foreground">Cannot scan it? Type this key into the app instead:</span>
            <span className="flex flex-wrap items-center gap-2">
              <code className="rounded-md bg-muted px-2 py-1 font-mono text-sm break-all" data-testid="two-factor-secret">
                {groupSecret(setup.secret)}
              </code>
              <CopyButton text={setup.secret} size="sm" label="Copy key" />
            </span>
          </span>
        </li>
        <li>
          <form onSubmit={submit} noValidate className="flex flex-col gap-2">
            <Label htmlFor={`${id}-code`}>Type the 6-digit code the app shows</Label>
            <div className="flex flex-wrap items-start gap-2">
              <Input
                ref={inputRef}
                id={`${id}-code`}
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9 ]*"
                maxLength={7}
                className="w-36 font-mono tracking-widest"
                value={code}
                onChange={(event) => {
                  setCode(event.target.value);
                  setError(null);
                }}
                readOnly={enable.isPending}
                aria-invalid={error !== null || undefined}
                aria-describedby={error ? `${id}-error` : undefined}
              />
              <Button type="submit" disabled={enable.isPending}>
                {enable.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <ShieldCheck aria-hidden="true" />}
                Turn on
              </Button>
            </div>
            <FormError id={`${id}-error`} message={error} />
          </form>
        </li>
      </ol>
    </div>
  );
}

/** Step 3: the recovery codes, shown this once, to copy or download before going on. */
export function RecoveryCodesPanel({ codes, account, onSaved }: { codes: readonly string[]; account: string; onSaved: () => unknown }) {
  const [finishing, setFinishing] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [issuedAt] = useState(() => new Date());
  const text = recoveryCodesText(codes, account, issuedAt);
  // The codes replace the form that had focus: focus moves to their heading, so they are read next.
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <section className="flex flex-col gap-4" aria-labelledby="recovery-codes-heading" data-testid="recovery-codes">
      <div className="flex flex-col gap-1">
        <h2 id="recovery-codes-heading" ref={headingRef} tabIndex={-1} className="text-base font-semibold outline-none">
          Two-step sign-in is on. Save your recovery codes
        </h2>
        <p className="text-sm text-muted-foreground">
          If you lose your phone, each of these codes lets you sign in once instead of the app's code. They are shown only now: copy or
          download them and keep them somewhere safe.
        </p>
      </div>
      <ol className="grid grid-cols-1 gap-2 rounded-md border bg-muted/40 p-3 font-mono text-sm min-[360px]:grid-cols-2" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code} className="break-all">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <CopyButton text={text} label="Copy codes" />
        <Button variant="outline" onClick={() => saveBlobAs(new Blob([text], { type: 'text/plain' }), RECOVERY_CODES_FILE_NAME)}>
          <Download aria-hidden="true" />
          Download
        </Button>
      </div>
      <Button
        onClick={() => {
          setFinishing(true);
          void Promise.resolve(onSaved()).finally(() => setFinishing(false));
        }}
        disabled={finishing}
        className="w-full sm:w-fit"
        data-testid="recovery-codes-saved"
      >
        {finishing ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
        I have saved them
      </Button>
    </section>
  );
}

/**
 * Setting up two-step sign-in, from the start: a new secret is asked for once (POST setup), shown as a QR
 * code and as a key; the first code turns it on and brings the recovery codes; 'I have saved them' ends it.
 */
export function TwoFactorEnrol({ account, onEnabled, onDone }: { account: string; onEnabled?: () => void; onDone: () => unknown }) {
  const start = useStartTwoFactorSetup();
  const [codes, setCodes] = useState<string[] | null>(null);
  const started = useRef(false);
  const { mutate } = start;

  useEffect(() => {
    // Once per enrolment: each call makes a new secret and the app must scan the last one.
    if (started.current) return;
    started.current = true;
    mutate();
  }, [mutate]);

  if (codes) return <RecoveryCodesPanel codes={codes} account={account} onSaved={onDone} />;
  if (start.isError) {
    return (
      <LoadError
        title="Two-step sign-in could not be started"
        detail={getErrorMessage(start.error)}
        onRetry={() => start.mutate()}
        retrying={start.isPending}
      />
    );
  }
  if (!start.data) {
    return (
      <div aria-busy="true" className="flex flex-col gap-3">
        <span className="sr-only">Preparing your QR code</span>
        <Skeleton className="h-4 w-full" />
        <Skeleton className="size-44" />
        <Skeleton className="h-4 w-2/3" />
      </div>
    );
  }
  return (
    <ScanAndConfirm
      setup={start.data}
      onEnabled={(recoveryCodes) => {
        setCodes(recoveryCodes);
        onEnabled?.();
      }}
    />
  );
}
