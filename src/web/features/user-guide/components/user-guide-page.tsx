import { ChevronLeft, ChevronRight, LayoutDashboard, LogOut } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useLogout } from '@/lib/session-api';
import { useInstallation, useSystemSettings } from '@/lib/system-settings-query';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import {
  audienceOf,
  AUDIENCE_BADGES,
  canGoNext,
  canGoPrevious,
  GUIDE_STEP_COUNT,
  nextStep,
  parseGuideStep,
  previousStep,
  stepCounter,
  stepForKey,
} from '../guide-steps';
import { GUIDE_STEPS } from './guide-content';

/** Keys typed into these belong to them, not to the slideshow. */
const TYPING_TARGETS = 'input, textarea, select, [contenteditable="true"], [role="listbox"], [role="option"], [role="combobox"], [role="slider"]';

/** The open step lives in the query string (?step=), so a link can point at one and a reload keeps it. */
function useGuideStep() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const step = parseGuideStep(search);
  const goTo = (next: number) => navigate(next === 1 ? location : `${location}?step=${next}`, { replace: true });
  return [step, goTo] as const;
}

/** The User Guide: a 12-step slideshow; arrows, buttons, dots and the jump list move it; nothing wraps. */
export function UserGuidePage() {
  useDocumentTitle('User Guide');
  const [step, goTo] = useGuideStep();
  const logout = useLogout();
  const installation = useInstallation();
  const settings = useSystemSettings();
  const previousRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);

  const current = GUIDE_STEPS[step - 1] ?? GUIDE_STEPS[0];
  const audience = audienceOf(step);

  // A button that becomes disabled would drop focus to the page: hand it to the other one.
  useEffect(() => {
    if (!canGoNext(step) && document.activeElement === nextRef.current) previousRef.current?.focus();
    if (!canGoPrevious(step) && document.activeElement === previousRef.current) nextRef.current?.focus();
  }, [step]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
      if (event.target instanceof Element && event.target.closest(TYPING_TARGETS)) return;
      if (document.querySelector('[role="dialog"]')) return;
      const target = stepForKey(step, event.key);
      if (target === undefined) return;
      event.preventDefault();
      goTo(target);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  });

  if (!current) return null;
  const Icon = current.icon;

  return (
    <>
      <PageHeader
        title="User Guide"
        description="A step-by-step tour of Clearbase. Use the left and right arrow keys to move between steps."
        actions={
          <>
            <Button variant="outline" asChild>
              <Link href="/">
                <LayoutDashboard aria-hidden="true" />
                Dashboard
              </Link>
            </Button>
            <Button variant="outline" onClick={() => logout.mutate()} disabled={logout.isPending}>
              <LogOut aria-hidden="true" />
              Logout
            </Button>
          </>
        }
      />

      <div className="mb-4 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <Label htmlFor="guide-jump" className="text-muted-foreground">
          Jump to step
        </Label>
        <Select value={String(step)} onValueChange={(value) => goTo(Number(value))}>
          <SelectTrigger id="guide-jump" data-testid="guide-jump" className="w-full sm:w-80">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {GUIDE_STEPS.map((entry, index) => (
              <SelectItem key={entry.title} value={String(index + 1)}>
                {index + 1}. {entry.title}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>

      <Card data-testid="guide-step" data-step={step} aria-roledescription="slide" aria-labelledby="guide-step-title">
        <CardHeader className="gap-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Badge data-testid="guide-audience" variant={audience === 'admin' ? 'destructive' : 'secondary'}>
              {AUDIENCE_BADGES[audience]}
            </Badge>
            <span data-testid="guide-counter" className="text-sm text-muted-foreground" aria-live="polite">
              {stepCounter(step)}
            </span>
          </div>
          <h2 id="guide-step-title" className="flex items-center gap-3 text-xl font-semibold tracking-tight">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            {current.title}
          </h2>
        </CardHeader>
        <CardContent className="min-h-64">{current.body({ installation: installation.data, settings: settings.data })}</CardContent>
        <CardFooter className="flex flex-col gap-4 border-t pt-6 sm:flex-row sm:justify-between">
          <nav aria-label="Guide steps" className="order-first sm:order-none">
            <ol className="flex flex-wrap justify-center sm:gap-1">
              {GUIDE_STEPS.map((entry, index) => {
                const number = index + 1;
                const active = number === step;
                return (
                  <li key={entry.title}>
                    <button
                      type="button"
                      data-testid="guide-dot"
                      aria-label={`Step ${number}: ${entry.title}`}
                      aria-current={active ? 'step' : undefined}
                      onClick={() => goTo(number)}
                      className="flex size-6 items-center justify-center rounded-full outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
                    >
                      <span
                        aria-hidden="true"
                        className={cn(
                          'block rounded-full transition-all',
                          active ? 'size-3 bg-primary' : 'size-2 bg-muted-foreground/40 hover:bg-muted-foreground/70',
                          audienceOf(number) === 'admin' && !active && 'bg-destructive/50',
                        )}
                      />
                    </button>
                  </li>
                );
              })}
            </ol>
          </nav>
          <div className="flex w-full gap-2 sm:w-auto">
            <Button
              ref={previousRef}
              variant="outline"
              className="flex-1 sm:flex-none"
              onClick={() => goTo(previousStep(step))}
              disabled={!canGoPrevious(step)}
            >
              <ChevronLeft aria-hidden="true" />
              Previous
            </Button>
            <Button ref={nextRef} className="flex-1 sm:flex-none" onClick={() => goTo(nextStep(step))} disabled={!canGoNext(step)}>
              Next
              <ChevronRight aria-hidden="true" />
            </Button>
          </div>
        </CardFooter>
      </Card>
      <p className="sr-only">{`${GUIDE_STEP_COUNT} steps: 10 for every user, then 2 for admins.`}</p>
    </>
  );
}
