import type { TFormProvider } from '../../../contract';
import { formstack } from './formstack';
import { jotform } from './jotform';
import type { ProviderAdapter } from './provider';
import { tally } from './tally';
import { typeform } from './typeform';

/** The form builders Clearbase reads, by provider id; a provider without an adapter here is answered 404. */
export const PROVIDERS: Partial<Record<TFormProvider, ProviderAdapter>> = { jotform, typeform, tally, formstack };
