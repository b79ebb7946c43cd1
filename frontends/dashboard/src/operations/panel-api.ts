// The Lender panel page's calls to /api/ops/panel (declared in packages/contracts/src/search/panel-ops.ts,
// ops role only). Reads throw an ApiError (403: the refusal; anything else: a message with Retry).
// Upload and edit answer their refusals (400 with the problems, 404, 409) as values, for the forms
// to show; only a network failure throws.
import { ApiError, callApi, requestApi } from '@lsp/ui';
import type { PanelProductEditBody } from '@lsp/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { impactPollInterval } from './panel-model';

/** Never retry what retrying cannot fix. */
const retry = (count: number, error: unknown) =>
  !(error instanceof ApiError && [400, 401, 403, 404].includes(error.status)) && count < 2;

export const panelKeys = {
  all: ['ops', 'panel'] as const,
  overview: ['ops', 'panel', 'overview'] as const,
  version: (version: string) => ['ops', 'panel', 'version', version] as const,
  diff: (version: string) => ['ops', 'panel', 'diff', version] as const,
  impact: (version: string) => ['ops', 'panel', 'impact', version] as const,
};

export function usePanelOverview() {
  return useQuery({
    queryKey: panelKeys.overview,
    queryFn: ({ signal }) => requestApi('getLenderPanel', {}, { signal }),
    staleTime: 0,
    retry,
  });
}

export function usePanelVersion(version: string | undefined) {
  return useQuery({
    queryKey: panelKeys.version(version ?? ''),
    queryFn: ({ signal }) =>
      requestApi('getPanelVersion', { params: { version: version ?? '' } }, { signal }),
    enabled: Boolean(version),
    staleTime: 60_000,
    retry,
  });
}

export function usePanelDiff(version: string) {
  return useQuery({
    queryKey: panelKeys.diff(version),
    queryFn: ({ signal }) => requestApi('getPanelDiff', { params: { version } }, { signal }),
    staleTime: 0,
    retry,
  });
}

/** The version's impact measurement (null: never measured), polled every second while it runs. */
export function usePanelImpact(version: string) {
  return useQuery({
    queryKey: panelKeys.impact(version),
    queryFn: async ({ signal }) => {
      try {
        return await requestApi('getPanelImpact', { params: { version } }, { signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    refetchInterval: (query) => impactPollInterval(query.state.data),
    staleTime: 0,
    retry,
  });
}

export function useStartImpact(version: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => requestApi('startPanelImpact', { params: { version } }),
    onSuccess: (impact) => client.setQueryData(panelKeys.impact(version), impact),
  });
}

export function useActivateVersion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (version: string) => requestApi('activatePanelVersion', { params: { version } }),
    onSettled: () => client.invalidateQueries({ queryKey: panelKeys.all }),
  });
}

export function useUploadDraft() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: { fileName: string; content: string }) => callApi('uploadPanelDraft', { body: file }),
    onSuccess: (answer) => {
      if (answer.ok) return client.invalidateQueries({ queryKey: panelKeys.overview });
    },
  });
}

export function useEditProduct() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (edit: PanelProductEditBody) => callApi('editPanelProduct', { body: edit }),
    onSuccess: (answer) => {
      if (answer.ok) return client.invalidateQueries({ queryKey: panelKeys.overview });
    },
  });
}
