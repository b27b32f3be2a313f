import { Injectable } from '@nestjs/common';
import {
  ChangeMemberRole,
  ChangeMemberRolePayload,
  ChangeMemberRoleReply,
  ListMembers,
  ListMembersPayload,
  ListMembersReply,
  ListPendingInvitations,
  ListPendingInvitationsPayload,
  ListPendingInvitationsReply,
  RemoveMember,
  RemoveMemberPayload,
  RevokeInvitation,
  RevokeInvitationPayload,
} from '@platform/contracts';
import { TransportClient } from '@platform/transport';

/**
 * Memberships and invitations belong to core-tenants, which alone writes them
 * (docs/data-access.md#table-ownership): team management asks it over the
 * transport. Its catalog errors come back as they are; failures of the
 * transport as 503 5903 or 504 5904.
 */
@Injectable()
export class TeamClient {
  constructor(private readonly transport: TransportClient) {}

  listMembers(request: ListMembersPayload): Promise<ListMembersReply> {
    return this.transport.send(ListMembers, request);
  }

  changeRole(change: ChangeMemberRolePayload): Promise<ChangeMemberRoleReply> {
    return this.transport.send(ChangeMemberRole, change);
  }

  async removeMember(removal: RemoveMemberPayload): Promise<void> {
    await this.transport.send(RemoveMember, removal);
  }

  listPendingInvitations(request: ListPendingInvitationsPayload): Promise<ListPendingInvitationsReply> {
    return this.transport.send(ListPendingInvitations, request);
  }

  async revokeInvitation(revocation: RevokeInvitationPayload): Promise<void> {
    await this.transport.send(RevokeInvitation, revocation);
  }
}
