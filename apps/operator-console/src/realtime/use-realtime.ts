import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { dataOf, type PlatformApi } from '../api/platform-api';
import { queryKeys } from '../api/query-keys';
import { applyEvent } from './live-cache';
import { type ConnectionState, RealtimeClient, type SocketLike } from './realtime-client';

/** One socket per tenant the operator has open; its events keep the query cache current. */
export function useRealtime(api: PlatformApi, gatewayUrl: string, tenantID: string): ConnectionState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<ConnectionState>('connecting');
  useEffect(() => {
    const client = new RealtimeClient({
      gatewayUrl,
      requestTicket: async () =>
        (await dataOf(api.services.POST('/v1/tenants/{tenantID}/realtime-tickets', { params: { path: { tenantID } } }))).data.ticket,
      openSocket: browserSocket,
      onEvent: (event) => applyEvent(queryClient, tenantID, event),
      onResync: () => void queryClient.invalidateQueries({ queryKey: queryKeys.tenant(tenantID) }),
      onStateChange: setState,
    });
    client.start();
    return () => client.stop();
  }, [api, gatewayUrl, tenantID, queryClient]);
  return state;
}

/** The browser's WebSocket as the client sees it. */
function browserSocket(url: string): SocketLike {
  const socket = new WebSocket(url);
  const adapter: SocketLike = { send: (text) => socket.send(text), close: (code) => socket.close(code), onmessage: null, onclose: null, onerror: null };
  socket.onmessage = (message) => adapter.onmessage?.({ data: message.data });
  socket.onclose = (close) => adapter.onclose?.({ code: close.code });
  socket.onerror = (error) => adapter.onerror?.(error);
  return adapter;
}
