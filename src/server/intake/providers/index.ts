import type { TFormProvider } from '../../../contract';
import { cognitoAdapter } from './cognito';
import { formstack } from './formstack';
import { googleAdapter } from './google';
import { gravityAdapter } from './gravity';
import { jotform } from './jotform';
import type { ProviderAdapter } from './provider';
import { tally } from './tally';
import { typeform } from './typeform';
import { wufooAdapter } from './wufoo';

/** The form builders Clearbase reads, by provider id: every provider of the contract has its adapter. */
export const PROVIDERS: Record<TFormProvider, ProviderAdapter> = {
  jotform,
  typeform,
  google: googleAdapter,
  tally,
  formstack,
  cognito: cognitoAdapter,
  gravity: gravityAdapter,
  wufoo: wufooAdapter,
};
