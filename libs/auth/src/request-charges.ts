import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from './principal';

/**
 * What authentication and the access checks tell the request budgets
 * (`RequestQuotas` in libs/request-budgets implements it), so that this lib
 * knows who the caller is and where it is admitted, and nothing of budgets.
 */
export abstract class RequestCharges {
  /** The caller is authenticated: charge its principal (429 1071 past its budget). */
  abstract charge(request: FastifyRequest, reply: FastifyReply, principal: Principal): Promise<void>;

  /** The access check of the request in scope has admitted the caller to `tenantID`: charge that tenant. */
  abstract chargeAdmittedTenant(tenantID: string): Promise<void>;
}
