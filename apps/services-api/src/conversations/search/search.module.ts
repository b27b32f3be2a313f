import { Module } from '@nestjs/common';
import { CONVERSATION_SEARCH } from './conversation-search';
import { PostgresSearch } from './postgres-search.repository';
import { SearchController } from './search.controller';
import { SearchConversationsUseCase } from './search-conversations.use-case';

/** Search of a tenant's messages and contacts (docs/search.md): the routes, and PostgreSQL behind the port. */
@Module({
  controllers: [SearchController],
  providers: [{ provide: CONVERSATION_SEARCH, useClass: PostgresSearch }, SearchConversationsUseCase],
})
export class SearchModule {}
