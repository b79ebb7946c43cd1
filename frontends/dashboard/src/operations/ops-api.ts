// The console's calls to /api/ops (contract: packages/contracts/src/ops/http.ts). A 401 sends the
// browser to login; any other failure throws an ApiError carrying the status, so the page can tell
// 403 (not an ops user: the 403 page) from a service that is down (a panel says so and retries).
import { ApiError, redirectToLogin } from '@lsp/ui';
import type {
  OpsChainResponse,
  OpsDeadLetter,
  OpsDeadLettersResponse,
  OpsFeedStats,
  OpsHealthResponse,
  OpsQueueName,
  OpsQueuesResponse,
  OpsReplayResponse,
} from '@lsp/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

async function opsCall<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'include',
    headers:
      body === undefined
        ? { Accept: 'application/json' }
        : { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (res.status === 401) redirectToLogin();
  if (!res.ok) {
    const message =
      data && typeof data === 'object' && typeof (data as { error?: unknown }).error === 'string'
        ? (data as { error: string }).error
        : `API request failed: ${res.status}`;
    throw new ApiError(message, res.status, data);
  }
  return data as T;
}

export const isForbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

/** Never retry what retrying cannot fix. */
const retry = (count: number, error: unknown) =>
  !(error instanceof ApiError && [400, 401, 403, 404].includes(error.status)) && count < 2;

export const OPS_POLL_MS = 10_000;

export const opsKeys = {
  health: ['ops', 'health'] as const,
  stats: ['ops', 'feed-stats'] as const,
  deadLetters: (status: string) => ['ops', 'dead-letters', status] as const,
  queues: ['ops', 'queues'] as const,
  chain: (correlationId: string) => ['ops', 'chain', correlationId] as const,
};

export function useOpsHealth() {
  return useQuery({
    queryKey: opsKeys.health,
    queryFn: () => opsCall<OpsHealthResponse>('GET', '/api/ops/health'),
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    retry,
  });
}

export function useFeedStats(enabled: boolean) {
  return useQuery({
    queryKey: opsKeys.stats,
    queryFn: () => opsCall<OpsFeedStats>('GET', '/api/ops/feed/stats'),
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    enabled,
    retry,
  });
}

/** `status` '' means every status. */
export function useDeadLetters(status: string, enabled: boolean) {
  return useQuery({
    queryKey: opsKeys.deadLetters(status),
    queryFn: () =>
      opsCall<OpsDeadLettersResponse>(
        'GET',
        `/api/ops/dead-letters${status ? `?status=${encodeURIComponent(status)}` : ''}`,
      ),
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    enabled,
    retry,
  });
}

export function useQueues(enabled: boolean) {
  return useQuery({
    queryKey: opsKeys.queues,
    queryFn: () => opsCall<OpsQueuesResponse>('GET', '/api/ops/queues'),
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    enabled,
    retry,
  });
}

export function useCorrelationChain(correlationId: string | undefined) {
  return useQuery({
    queryKey: opsKeys.chain(correlationId ?? ''),
    queryFn: () =>
      opsCall<OpsChainResponse>(
        'GET',
        `/api/ops/events?correlationId=${encodeURIComponent(correlationId ?? '')}`,
      ),
    enabled: Boolean(correlationId),
    staleTime: 0,
    retry,
  });
}

function useOpsMutation<TVars, TResult>(call: (vars: TVars) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: ['ops'] }),
  });
}

export const useReplayDeadLetter = () =>
  useOpsMutation((id: string) =>
    opsCall<OpsReplayResponse>('POST', `/api/ops/dead-letters/${encodeURIComponent(id)}/replay`),
  );

export const useReplayAll = () =>
  useOpsMutation((topic: string | undefined) =>
    opsCall<OpsReplayResponse>('POST', '/api/ops/dead-letters/replay', topic ? { topic } : {}),
  );

export const useDiscardDeadLetter = () =>
  useOpsMutation(({ id, reason }: { id: string; reason: string }) =>
    opsCall<OpsDeadLetter>('POST', `/api/ops/dead-letters/${encodeURIComponent(id)}/discard`, { reason }),
  );

export const useRetryJob = () =>
  useOpsMutation(({ queue, jobId }: { queue: OpsQueueName; jobId: string }) =>
    opsCall<{ ok: true }>(
      'POST',
      `/api/ops/queues/${encodeURIComponent(queue)}/jobs/${encodeURIComponent(jobId)}/retry`,
    ),
  );

/** Asks the cheapest ops route what the server thinks of this user (after the stream fails). */
export async function probeAccess(): Promise<'ok' | 'forbidden' | 'down'> {
  try {
    await opsCall('GET', '/api/ops/health');
    return 'ok';
  } catch (error) {
    return isForbidden(error) ? 'forbidden' : 'down';
  }
}
