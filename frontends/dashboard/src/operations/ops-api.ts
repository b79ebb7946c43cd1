// The console's calls to /api/ops (declared in packages/contracts/src/ops/routes.ts). A 401 sends the
// browser to login; any other failure throws an ApiError carrying the status and the server's error,
// so the page can tell 403 (not an ops user: the 403 page) from a service that is down (a panel says
// so and retries).
import { ApiError, requestApi } from '@lsp/ui';
import type { DeadLetterStatus, OpsQueueName } from '@lsp/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

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
    queryFn: ({ signal }) => requestApi('getPlatformHealth', {}, { signal }),
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    retry,
  });
}

export function useFeedStats(enabled: boolean) {
  return useQuery({
    queryKey: opsKeys.stats,
    queryFn: ({ signal }) => requestApi('getOpsFeedStats', {}, { signal }),
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
    queryFn: ({ signal }) =>
      requestApi(
        'listDeadLetters',
        { query: { status: (status || undefined) as DeadLetterStatus | undefined } },
        { signal },
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
    queryFn: ({ signal }) => requestApi('listQueues', {}, { signal }),
    refetchInterval: OPS_POLL_MS,
    staleTime: 0,
    enabled,
    retry,
  });
}

export function useCorrelationChain(correlationId: string | undefined) {
  return useQuery({
    queryKey: opsKeys.chain(correlationId ?? ''),
    queryFn: ({ signal }) =>
      requestApi('getCorrelationChain', { query: { correlationId: correlationId ?? '' } }, { signal }),
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
  useOpsMutation((id: string) => requestApi('replayDeadLetter', { params: { id } }));

export const useReplayAll = () =>
  useOpsMutation((topic: string | undefined) =>
    requestApi('replayDeadLetters', { body: topic ? { topic } : {} }),
  );

export const useDiscardDeadLetter = () =>
  useOpsMutation(({ id, reason }: { id: string; reason: string }) =>
    requestApi('discardDeadLetter', { params: { id }, body: { reason } }),
  );

export const useRetryJob = () =>
  useOpsMutation(({ queue, jobId }: { queue: OpsQueueName; jobId: string }) =>
    requestApi('retryQueueJob', { params: { queue, jobId } }),
  );

/** Asks the cheapest ops route what the server thinks of this user (after the stream fails). */
export async function probeAccess(): Promise<'ok' | 'forbidden' | 'down'> {
  try {
    await requestApi('getPlatformHealth');
    return 'ok';
  } catch (error) {
    return isForbidden(error) ? 'forbidden' : 'down';
  }
}
