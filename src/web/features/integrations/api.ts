import { z } from 'zod';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZFormWebhook,
  ZFormWebhookSecret,
  ZIntakeDeliveries,
  ZIntakeDelivery,
  ZIntegration,
  ZIntegrations,
  type TFormProvider,
  type TIntakeDelivery,
  type TIntegrationPatch,
} from '../../../contract';
import { apiRequest, getQueryFn } from '@/lib/api-client';

const ZReplayAnswer = z.object({ delivery: ZIntakeDelivery });

/** Every Integrations query starts with this key: a save or a replay refreshes them all. */
export const INTEGRATIONS_KEY = ['api', 'integrations'] as const;
/** An open deliveries log reads again this often, as the other lists do. */
export const DELIVERIES_REFETCH_MS = 30_000;

export const integrationsQueryOptions = queryOptions({
  queryKey: INTEGRATIONS_KEY,
  queryFn: getQueryFn({ schema: ZIntegrations }),
});

/** GET /api/integrations: every form builder, for a principal who may manage settings. */
export function useIntegrations(enabled: boolean) {
  return useQuery({ ...integrationsQueryOptions, enabled });
}

export function deliveriesQueryOptions(provider: TFormProvider) {
  return queryOptions({
    queryKey: [...INTEGRATIONS_KEY, provider, 'deliveries'],
    queryFn: getQueryFn({ schema: ZIntakeDeliveries }),
    refetchInterval: DELIVERIES_REFETCH_MS,
  });
}

/** GET /api/integrations/{provider}/deliveries: the last 100, newest first. */
export function useDeliveries(provider: TFormProvider) {
  return useQuery(deliveriesQueryOptions(provider));
}

/** PATCH /api/integrations/{provider}: answers the provider as it now is, which replaces it in the list. */
export function useUpdateIntegration(provider: TFormProvider) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...INTEGRATIONS_KEY, provider, 'update'],
    mutationFn: (patch: TIntegrationPatch) => apiRequest('PATCH', `/api/integrations/${encodeURIComponent(provider)}`, patch, { schema: ZIntegration }),
    onSuccess: (saved) => {
      queryClient.setQueryData(integrationsQueryOptions.queryKey, (list) =>
        list ? { integrations: list.integrations.map((entry) => (entry.provider === saved.provider ? saved : entry)) } : list,
      );
    },
  });
}

/**
 * POST /api/integrations/deliveries/{id}/replay: runs a kept delivery again. Its answer is read as the new
 * delivery when it has that shape; either way the log and the list are read again.
 */
export function useReplayDelivery(provider: TFormProvider) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...INTEGRATIONS_KEY, provider, 'replay'],
    mutationFn: async (id: string): Promise<TIntakeDelivery | null> => {
      const answer = await apiRequest('POST', `/api/integrations/deliveries/${encodeURIComponent(id)}/replay`);
      const delivery = ZIntakeDelivery.safeParse(answer);
      if (delivery.success) return delivery.data;
      const wrapped = ZReplayAnswer.safeParse(answer);
      return wrapped.success ? wrapped.data.delivery : null;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: INTEGRATIONS_KEY }),
  });
}

const FORM_WEBHOOK_KEY = [...INTEGRATIONS_KEY, 'form-webhook'] as const;

/** GET /api/integrations/form-webhook: its address and where its secret is set, never the secret. */
export function useFormWebhook() {
  return useQuery({ queryKey: FORM_WEBHOOK_KEY, queryFn: getQueryFn({ schema: ZFormWebhook }) });
}

/** POST /api/integrations/form-webhook/reveal: the secret, for Reveal and Copy (the server notes who looked). */
export function useRevealFormSecret() {
  return useMutation({
    mutationKey: [...FORM_WEBHOOK_KEY, 'reveal'],
    mutationFn: () => apiRequest('POST', '/api/integrations/form-webhook/reveal', undefined, { schema: ZFormWebhookSecret }),
  });
}

/** POST /api/integrations/form-webhook/rotate: a new random secret, in force at once; answers it. */
export function useRotateFormSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...FORM_WEBHOOK_KEY, 'rotate'],
    mutationFn: () => apiRequest('POST', '/api/integrations/form-webhook/rotate', undefined, { schema: ZFormWebhookSecret }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FORM_WEBHOOK_KEY }),
  });
}
