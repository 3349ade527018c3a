/** Decoders of the admin interface's parameters (the control operations validate the members). */
import { object, type Decoder } from '../rpc/params.js';

/** A JSON object, passed on to the control operation that validates its members. */
export const jsonObject: Decoder<Record<string, unknown>> = (value) => object(value);
