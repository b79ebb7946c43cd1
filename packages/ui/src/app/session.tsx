// Who is signed in. The shell mounts one SessionProvider; the header, the shell's pages and both
// remotes read it with useSession(). It asks GET /api/auth/me on load and again whenever the
// `userSessionChanged` window event fires (login, logout, verification).
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { callApi } from './api';
import { STORAGE_KEYS, USER_SESSION_CHANGED_EVENT } from '@lsp/contracts/src/common/constants';

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  verified: boolean;
  /** Roles of the session (`ops` opens the operations console); absent for most people. */
  roles?: string[];
}

export type SessionStatus = 'loading' | 'authenticated' | 'anonymous';

export interface SessionState {
  status: SessionStatus;
  user: SessionUser | null;
  /** Asks the server again; resolves with the user or null. */
  refresh: () => Promise<SessionUser | null>;
}

const SessionContext = createContext<SessionState | null>(null);

function readUser(body: unknown): SessionUser | null {
  const candidate =
    body && typeof body === 'object' && 'user' in body ? (body as { user: unknown }).user : body;
  if (!candidate || typeof candidate !== 'object') return null;
  const record = candidate as Record<string, unknown>;
  const id = record.id ?? record.userId;
  if (typeof record.email !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) return null;
  return {
    id: String(id),
    name: typeof record.name === 'string' ? record.name : '',
    email: record.email,
    verified: record.verified === true,
    roles: Array.isArray(record.roles) ? record.roles.filter((r): r is string => typeof r === 'string') : [],
  };
}

/** GET /api/auth/me: the user, or null for any non-OK answer or failure (logged). */
export async function fetchSessionUser(): Promise<SessionUser | null> {
  try {
    const answer = await callApi('getCurrentUser');
    return answer.ok ? readUser(answer.data) : null;
  } catch (err) {
    console.error('Session check failed', err);
    return null;
  }
}

/** Mirrors the session into storage under the spec's keys, for pages that read them. */
function rememberUser(user: SessionUser | null) {
  try {
    if (user) {
      const stored = JSON.stringify({ ...user, userId: user.id });
      window.localStorage.setItem(STORAGE_KEYS.currentUser, stored);
      window.localStorage.setItem(STORAGE_KEYS.userSession, JSON.stringify({ user, userId: user.id }));
    } else {
      window.localStorage.removeItem(STORAGE_KEYS.currentUser);
      window.localStorage.removeItem(STORAGE_KEYS.userSession);
    }
  } catch {
    // Storage can be unavailable (private mode); the in-memory session still works.
  }
}

export function SessionProvider({
  children,
  fetchUser = fetchSessionUser,
}: {
  children: ReactNode;
  fetchUser?: () => Promise<SessionUser | null>;
}) {
  const [state, setState] = useState<{ status: SessionStatus; user: SessionUser | null }>({
    status: 'loading',
    user: null,
  });
  const latest = useRef(0);

  const refresh = useCallback(async () => {
    const call = ++latest.current;
    const user = await fetchUser();
    // An older, slower check must not overwrite a newer answer.
    if (call === latest.current) {
      setState({ status: user ? 'authenticated' : 'anonymous', user });
      rememberUser(user);
    }
    return user;
  }, [fetchUser]);

  useEffect(() => {
    void refresh();
    const onChange = () => void refresh();
    window.addEventListener(USER_SESSION_CHANGED_EVENT, onChange);
    return () => window.removeEventListener(USER_SESSION_CHANGED_EVENT, onChange);
  }, [refresh]);

  const value = useMemo(() => ({ ...state, refresh }), [state, refresh]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() needs a <SessionProvider> above it (the shell provides one).');
  return session;
}

/** Whether the signed-in user holds a role (`ops` opens the operations console). */
export const hasRole = (user: SessionUser | null | undefined, role: string) =>
  Boolean(user?.roles?.includes(role));
