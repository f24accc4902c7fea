import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import {
  LIVE_CLEAN_CLOSE_CODE,
  LIVE_PING_INTERVAL_MS,
  LIVE_RECONNECT_DELAY_MS,
  LIVE_TURNED_OFF_CLOSE_CODE,
  LIVE_UNAUTHORIZED_CLOSE_CODE,
  type TClientMessage,
} from '../../contract';
import { describeLiveMessage, LIVE_REFRESHED_RESOURCES, liveSocketUrl, parseLiveMessage } from './live-messages';
import { queryKeyReadsAny, SESSION_QUERY_KEY } from './query-keys';
import { REALTIME_OFF_RECHECK_MS, SYSTEM_SETTINGS_QUERY_KEY, systemSettingsQueryOptions } from './system-settings-query';
import { toast } from './toast-store';

/** 'off': real-time updates are turned off in System Settings; screens rely on their own polling. */
export type LiveConnectionState = 'connecting' | 'connected' | 'disconnected' | 'off';

const LiveConnectionContext = createContext<LiveConnectionState>('disconnected');

function send(socket: WebSocket, message: TClientMessage): void {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

/**
 * Keeps the /ws connection open while mounted (the authenticated shell) and shares its state; no connection
 * while real-time updates are turned off in System Settings.
 */
export function LiveConnectionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveConnectionState>('connecting');
  const settings = useQuery({
    ...systemSettingsQueryOptions,
    refetchInterval: (query) => (query.state.data?.realtimeUpdates === false ? REALTIME_OFF_RECHECK_MS : false),
  });
  // Unknown (loading, or the call failed) counts as on: the server refuses the connection if it is not.
  const realtimeOff = settings.data?.realtimeUpdates === false;

  useEffect(() => {
    if (realtimeOff) return;
    let socket: WebSocket | undefined;
    let pingTimer: ReturnType<typeof setInterval> | undefined;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const handleMessage = (event: MessageEvent<unknown>): void => {
      const message = parseLiveMessage(event.data);
      if (!message) {
        console.warn('Ignoring an unrecognised live message', event.data);
        return;
      }
      const effect = describeLiveMessage(message);
      if (effect.connected) setState('connected');
      if (effect.refreshDocuments) {
        void queryClient.invalidateQueries({
          predicate: (query) => queryKeyReadsAny(query.queryKey, LIVE_REFRESHED_RESOURCES),
        });
      }
      if (effect.refreshDocument) void queryClient.invalidateQueries({ queryKey: ['api', 'documents', effect.refreshDocument] });
      if (effect.toast) toast(effect.toast);
    };

    const connect = (): void => {
      const ws = new WebSocket(liveSocketUrl(window.location));
      socket = ws;
      let opened = false;
      ws.addEventListener('open', () => {
        opened = true;
        setState('connected');
        pingTimer = setInterval(() => send(ws, { type: 'ping', timestamp: Date.now() }), LIVE_PING_INTERVAL_MS);
      });
      ws.addEventListener('message', handleMessage);
      ws.addEventListener('error', (event) => {
        console.error('Live connection error', event);
        setState('disconnected');
      });
      ws.addEventListener('close', (event) => {
        clearInterval(pingTimer);
        if (stopped) return;
        setState('disconnected');
        if (event.code === LIVE_TURNED_OFF_CLOSE_CODE || !opened) {
          // Turned off in Settings (or refused, perhaps for that): the settings answer says whether to stop.
          void queryClient.invalidateQueries({ queryKey: SYSTEM_SETTINGS_QUERY_KEY, exact: true });
          if (event.code === LIVE_TURNED_OFF_CLOSE_CODE) return;
        }
        if (event.code === LIVE_UNAUTHORIZED_CLOSE_CODE) {
          // The session is gone: let the access gate take over instead of retrying forever.
          void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY, exact: true });
          return;
        }
        if (event.code !== LIVE_CLEAN_CLOSE_CODE) {
          reconnectTimer = setTimeout(connect, LIVE_RECONNECT_DELAY_MS);
        }
      });
    };

    connect();
    return () => {
      stopped = true;
      clearTimeout(reconnectTimer);
      clearInterval(pingTimer);
      socket?.close(LIVE_CLEAN_CLOSE_CODE);
    };
  }, [queryClient, realtimeOff]);

  return <LiveConnectionContext.Provider value={realtimeOff ? 'off' : state}>{children}</LiveConnectionContext.Provider>;
}

export function useLiveConnection(): LiveConnectionState {
  return useContext(LiveConnectionContext);
}
